import type { Host, PluginContext, ToolInfo } from '@netbench/plugin-api';
import { ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { isMissing, runOnHost } from '@netbench/plugin-api/tool-kit';

const VERSION_RE = /^iperf (3\.\d+(?:\.\d+)?)/m;
const FEATURES_RE = /^Optional features available: (.*)$/m;
const CHECK_TIMEOUT_MS = 15_000;

export interface Iperf3Features {
  /** `--bidir` exists (iperf3 3.7+). */
  readonly bidir: boolean;
  /** `-Z` (sendfile) is built in. */
  readonly zerocopy: boolean;
  readonly sctp: boolean;
  readonly cpu_affinity: boolean;
  readonly tcp_congestion: boolean;
  readonly pacing: boolean;
}

/** `iperf3 --version` on the host. */
export async function checkIperf3(host: Host, ctx: PluginContext): Promise<ToolInfo> {
  const outcome = await runOnHost(host, ['iperf3', '--version'], { signal: ctx.signal, timeoutMs: CHECK_TIMEOUT_MS });
  if (isMissing(outcome)) throw new ToolMissingError('iperf3', host.name, outcome.detail);
  const info = readIperf3Version(outcome.stdout);
  if (!info) {
    throw new UnsupportedError(`iperf3 --version on host ${host.name} said ${JSON.stringify(`${outcome.stdout}${outcome.stderr}`.trim().slice(0, 200))}, not iperf 3.x`);
  }
  return { version: info.version, features: { ...info.features }, command: 'iperf3' };
}

/** Version and build features from `iperf3 --version` text; undefined when it is not iperf 3. */
export function readIperf3Version(text: string): { version: string; features: Iperf3Features } | undefined {
  const version = VERSION_RE.exec(text)?.[1];
  if (version === undefined) return undefined;
  const [, minor = 0] = version.split('.').map(Number);
  // Before 3.1 the features line did not exist; assume what every build then had.
  const listed = FEATURES_RE.exec(text)?.[1]?.toLowerCase();
  const has = (name: string, fallback: boolean) => (listed === undefined ? fallback : listed.includes(name));
  return {
    version,
    features: {
      bidir: minor >= 7,
      zerocopy: has('zerocopy', true),
      sctp: has('sctp', false),
      cpu_affinity: has('cpu affinity', false),
      tcp_congestion: has('tcp congestion', false),
      pacing: has('socket pacing', false),
    },
  };
}
