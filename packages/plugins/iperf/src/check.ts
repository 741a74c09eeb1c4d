import type { Host, PluginContext, ToolInfo } from '@netbench/plugin-api';
import { ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { isMissing, runOnHost } from '@netbench/plugin-api/tool-kit';

// "iperf version 2.1.8 (12 August 2022) pthreads" (on stderr, exit 1); iperf3 says "iperf 3.12".
const VERSION_RE = /^iperf version (2\.\d+(?:\.\d+)*)/m;
const CHECK_TIMEOUT_MS = 15_000;

export interface IperfFeatures {
  /** `-R` (server sends), iperf 2.1+. */
  readonly reverse: boolean;
  /** Enhanced reports print RTT and congestion window (2.0.10+). */
  readonly enhanced_tcp: boolean;
}

/** `iperf -v` on the host: an iperf 2 version, or ToolMissingError. */
export async function checkIperf(host: Host, ctx: PluginContext): Promise<ToolInfo> {
  const outcome = await runOnHost(host, ['iperf', '-v'], { signal: ctx.signal, timeoutMs: CHECK_TIMEOUT_MS });
  if (isMissing(outcome)) throw new ToolMissingError('iperf', host.name, outcome.detail);
  const text = `${outcome.stdout}\n${outcome.stderr}`;
  const info = readIperfVersion(text);
  if (!info) {
    throw new UnsupportedError(`iperf -v on host ${host.name} said ${JSON.stringify(text.trim().slice(0, 200))}, not iperf 2 (for iperf3 use tool: iperf3)`);
  }
  return { version: info.version, features: { ...info.features }, command: 'iperf' };
}

/** Version and features from `iperf -v` text; undefined when it is not iperf 2. */
export function readIperfVersion(text: string): { version: string; features: IperfFeatures } | undefined {
  const version = VERSION_RE.exec(text)?.[1];
  if (version === undefined) return undefined;
  const [, minor = 0, patch = 0] = version.split('.').map(Number);
  return { version, features: { reverse: minor >= 1, enhanced_tcp: minor >= 1 || patch >= 10 } };
}
