import type { ExecResult, Host } from '@netbench/plugin-api';
import type { ToolServer, ToolServerOptions } from '@netbench/plugin-api/tool-kit';
import { startToolServer } from '@netbench/plugin-api/tool-kit';
import { reportedError } from './iperf3-error.js';
import { serverArgv } from './trial-settings.js';

export { PortInUseError } from '@netbench/plugin-api/tool-kit';

/** iperf3 servers listen on TCP (UDP tests too: the control connection is TCP); a one-off server is stopped with SIGTERM, then SIGKILL. */
export const IPERF3_SERVER: ToolServerOptions = { tool: 'iperf3', protocol: 'tcp', exitMessage: startFailureMessage };

/** Start `iperf3 -s -1 -p PORT -J` and return once it listens. Kills it on any failure. */
export function startServer(host: Host, port: number, signal: AbortSignal): Promise<ToolServer> {
  return startToolServer(host, serverArgv(port), port, IPERF3_SERVER, signal);
}

// With -J the server prints its error in JSON on stdout, not on stderr.
function startFailureMessage(result: ExecResult): string {
  return reportedError(result.stdout) ?? (result.stderr.trim() || `exit code ${result.code}`);
}
