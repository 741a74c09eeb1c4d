import { runCommand } from '@netbench/plugin-api/cloud-kit';

export interface ShapingCapabilities {
  /** Root in this process: tc on the host's interfaces and in a container's namespace needs it. */
  readonly root: boolean;
  readonly tbf: boolean;
  readonly netem: boolean;
  readonly detail: Record<string, string>;
}

/**
 * Try a qdisc on the loopback of a throw-away namespace (`unshare --net`):
 * the namespace vanishes with the process, so probing creates nothing.
 */
async function probeQdisc(args: readonly string[]): Promise<{ ok: boolean; detail: string }> {
  const result = await runCommand(['unshare', '--net', 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', ...args], { timeoutMs: 10_000 });
  if (result.code === 0) return { ok: true, detail: 'available' };
  const message = (result.stderr.trim() || result.stdout.trim()).split('\n')[0] ?? '';
  return { ok: false, detail: message || `tc exited with ${result.code ?? 'a signal'}` };
}

let cached: Promise<ShapingCapabilities> | undefined;

/** What this machine lets the plugin shape. Probed once per process; creates nothing. */
export function shapingCapabilities(): Promise<ShapingCapabilities> {
  cached ??= (async () => {
    const root = process.geteuid?.() === 0;
    const detail: Record<string, string> = { root: root ? 'running as root' : `running as uid ${process.geteuid?.() ?? '?'}, not root` };
    if (!root) return { root, tbf: false, netem: false, detail: { ...detail, tbf: 'unknown: needs root to probe', netem: 'unknown: needs root to probe' } };
    const [tbf, netem] = await Promise.all([probeQdisc(['tbf', 'rate', '1mbit', 'burst', '32kbit', 'latency', '50ms']), probeQdisc(['netem', 'delay', '1ms'])]);
    detail.tbf = tbf.ok ? 'available' : `unavailable (${tbf.detail})`;
    detail.netem = netem.ok ? 'available' : `this kernel has no sch_netem (tc: ${netem.detail})`;
    return { root, tbf: tbf.ok, netem: netem.ok, detail };
  })();
  return cached;
}
