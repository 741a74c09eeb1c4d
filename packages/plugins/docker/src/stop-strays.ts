import type { Host } from '@netbench/plugin-api';

/**
 * Inside a container: every process but the container's init (pid 1, its
 * `sleep infinity`) and this script gets SIGTERM, then SIGKILL after up to
 * 2 s; prints `pid comm` of each one it found. The pid list is read once,
 * before the script starts any child, so the script never signals its own.
 */
const STOP_ALL_BUT_INIT = [
  'found=""',
  'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = 1 ] && continue; [ "$p" = "$$" ] && continue; c=""; read -r c 2>/dev/null <"$d/comm" || continue; found="$found $p"; echo "$p $c"; done',
  '[ -z "$found" ] && exit 0',
  'kill -TERM $found 2>/dev/null',
  'i=0; while [ $i -lt 20 ]; do alive=""; for p in $found; do [ -d /proc/$p ] && alive="$alive $p"; done; [ -z "$alive" ] && exit 0; sleep 0.1; i=$((i+1)); done',
  'kill -KILL $alive 2>/dev/null; exit 0',
].join('\n');

/**
 * Stop what an earlier, killed invocation left running in a reattached
 * container. Docker keeps an exec's process running when the client that
 * started it dies, so a cut-off trial's netperf or iperf3 would otherwise
 * share the container with the trials run again. Only called at reattach,
 * before this invocation starts anything there. Returns `pid comm` of each.
 */
export async function stopStrays(host: Host): Promise<string[]> {
  const result = await host.exec(['sh', '-c', STOP_ALL_BUT_INIT], { timeoutMs: 30_000 });
  if (result.code !== 0) throw new Error(`docker: host ${host.id}: could not stop the processes an earlier invocation left (exit ${result.code}): ${result.stderr.trim()}`);
  return result.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}
