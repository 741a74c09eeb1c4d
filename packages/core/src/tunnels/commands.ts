/**
 * Shell helpers used through `Host.exec` (argv arrays): each script is a
 * constant and every value reaches it as a positional parameter, never as
 * shell text, so the same commands work over `ip netns exec`, a local child
 * process and SSH.
 */

/**
 * Start a daemon detached from the caller (`setsid -f`), recording `pid starttime`
 * (start time guards against a reused pid at teardown) in `$1`, its output in `$2`.
 * With `$3 = 1` it first mounts a private tmpfs on `/run` (charon's pid file and
 * sockets are fixed there, so two charons on one machine would collide); the caller
 * wraps it in `unshare --mount` for that.
 */
export const DAEMON_SCRIPT = [
  'pidf=$1; log=$2; priv=$3; shift 3',
  'if [ "$priv" = 1 ]; then mount -t tmpfs -o mode=0700 netbench /run || exit 1; fi',
  'echo "$$ $(sed "s/.*) //" /proc/$$/stat | cut -d" " -f20)" > "$pidf"',
  'exec "$@" </dev/null >>"$log" 2>&1',
].join('\n');

export function daemonArgv(pidFile: string, logFile: string, argv: readonly string[], privateRun = false): string[] {
  const wrapper = ['sh', '-c', DAEMON_SCRIPT, 'sh', pidFile, logFile, privateRun ? '1' : '0', ...argv];
  return privateRun ? ['setsid', '-f', 'unshare', '--mount', '--propagation', 'private', '--', ...wrapper] : ['setsid', '-f', ...wrapper];
}

/** Write stdin to `$1`, readable by the owner only. */
export const WRITE_PRIVATE_SCRIPT = 'umask 077 && cat > "$1"';
export const writePrivateArgv = (path: string): string[] => ['sh', '-c', WRITE_PRIVATE_SCRIPT, 'sh', path];

/** Make the run's tunnel root and this end's directory, both 0700. */
export const makeDirArgv = (root: string, dir: string): string[] => ['sh', '-c', 'umask 077 && mkdir -p -- "$1" && chmod 0700 -- "$1" && mkdir -p -- "$2"', 'sh', root, dir];

/**
 * Undo one end from its directory alone: stop every daemon whose pid file is
 * there (TERM, then KILL after 3 s; only when its start time still matches),
 * delete the interface `$2` when `$3 = 1` (a kernel link, which no daemon owns),
 * remove the WireGuard socket `$4` and the inner address `$5` from `lo` (kernel ESP) if given, then the directory and, when it is
 * empty, the run's root. Succeeds when there is nothing left to undo.
 */
export const TEARDOWN_SCRIPT = [
  'dir=$1; iface=$2; kernel=$3; sock=$4; loaddr=$5',
  'alive() { [ -r "/proc/$1/stat" ] && [ "$(sed "s/.*) //" "/proc/$1/stat" | cut -d" " -f20)" = "$2" ] && ! grep -q "^State:.*Z" "/proc/$1/status"; }',
  'each() { for f in "$dir"/*.pid; do [ -f "$f" ] || continue; read -r pid start < "$f" || continue; alive "$pid" "$start" && "$@" "$pid"; done; }',
  'if [ -d "$dir" ]; then',
  '  each kill -TERM',
  '  i=0; while [ $i -lt 30 ]; do left=0; count() { left=1; }; each count; [ $left = 0 ] && break; sleep 0.1; i=$((i+1)); done',
  '  each kill -KILL',
  'fi',
  'if [ "$kernel" = 1 ] && ip link show dev "$iface" >/dev/null 2>&1; then ip link del dev "$iface" || exit 1; fi',
  'if [ -n "$sock" ]; then rm -f -- "$sock"; fi',
  'if [ -n "$loaddr" ] && ip -o address show dev lo | grep -qF " $loaddr/"; then ip address del "$loaddr/32" dev lo || exit 1; fi',
  'rm -rf -- "$dir" || exit 1',
  'rmdir -- "${dir%/*}" 2>/dev/null',
  'exit 0',
].join('\n');

export interface EndpointUndo {
  readonly dir: string;
  readonly iface: string;
  /** The interface is a kernel link (kernel WireGuard): delete it. */
  readonly kernelLink: boolean;
  /** wireguard-go's UAPI socket. */
  readonly socket?: string;
  /** Inner address put on `lo` (kernel ESP). */
  readonly loAddress?: string;
}

export const teardownArgv = (undo: EndpointUndo): string[] =>
  ['sh', '-c', TEARDOWN_SCRIPT, 'sh', undo.dir, undo.iface, undo.kernelLink ? '1' : '0', undo.socket ?? '', undo.loAddress ?? ''];
