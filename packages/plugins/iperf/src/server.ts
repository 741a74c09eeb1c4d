import type { ExecResult } from '@netbench/plugin-api';
import type { ToolServerOptions } from '@netbench/plugin-api/tool-kit';

/**
 * How an iperf 2 server is started and stopped. Stop sends SIGINT first
 * (iperf 2 then prints and flushes what it has), SIGTERM and SIGKILL if it lingers.
 */
export function iperfServerOptions(protocol: 'tcp' | 'udp'): ToolServerOptions {
  // The banner comes once the port is bound (TCP: just before listen; start still confirms LISTEN in /proc/net).
  return { tool: 'iperf', protocol, stopSignals: ['SIGINT', 'SIGTERM', 'SIGKILL'], exitMessage: startFailureMessage, readyLine: READY_LINE };
}

const READY_LINE = /^Server listening on (TCP|UDP) port \d+/;

// iperf 2 frames its messages with lines of dashes; keep the last lines that say something.
function startFailureMessage(result: ExecResult): string {
  return (
    `${result.stderr}\n${result.stdout}`
      .trim()
      .split('\n')
      .filter((l) => !/^-+$/.test(l.trim()))
      .slice(-3)
      .join(' | ') || `exit code ${result.code}`
  );
}
