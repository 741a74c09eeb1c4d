import type { Host, PluginContext, ToolInfo } from '@netbench/plugin-api';
import { ToolMissingError } from '@netbench/plugin-api';

// `sockperf, version 3.7-no.git`
const VERSION_RE = /sockperf, version (\d+(?:\.\d+)+)/;

/** sockperf's version on a host; `ToolMissingError` when it is not there. */
export async function checkSockperf(host: Host, ctx: PluginContext): Promise<ToolInfo> {
  let result;
  try {
    result = await host.exec(['sockperf', '--version'], { signal: ctx.signal, timeoutMs: 10_000 });
  } catch (error) {
    throw new ToolMissingError('sockperf', host.name, error instanceof Error ? error.message : String(error));
  }
  const version = VERSION_RE.exec(`${result.stdout}\n${result.stderr}`)?.[1];
  if (!version) throw new ToolMissingError('sockperf', host.name, (result.stderr || result.stdout).trim());
  return { version, features: { full_log: true }, command: 'sockperf' };
}
