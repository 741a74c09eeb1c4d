import type { WizardDirection, WizardLoadTest, WizardNetperfTest, WizardTool } from './bridge-types.js';

/**
 * Which ends of a pair send bulk traffic in the wizard's tests: the client
 * (`forward`: iperf3, netperf TCP_STREAM or UDP_STREAM, flent's uploads) and
 * the server (`reverse`: iperf3 -R, TCP_MAERTS, flent's downloads). A rate
 * limits what a host sends, so the lab's rate goes on these ends only; with
 * neither, a rate measures nothing (ping and request/response tests only).
 */
export function bulkDirections(answers: {
  readonly tools: readonly WizardTool[];
  readonly netperfTests: readonly WizardNetperfTest[];
  readonly direction: WizardDirection;
  readonly loadTest?: WizardLoadTest | undefined;
}): { forward: boolean; reverse: boolean } {
  let forward = false;
  let reverse = false;
  for (const tool of answers.tools) {
    if (tool === 'iperf3' || (tool === 'netperf' && answers.netperfTests.includes('TCP_STREAM'))) {
      forward ||= answers.direction !== 'reverse';
      reverse ||= answers.direction !== 'forward';
    }
    // UDP_STREAM has no reverse test in netperf: it stays client → server.
    if (tool === 'netperf' && answers.netperfTests.includes('UDP_STREAM')) forward = true;
    if (tool === 'load') {
      const test = answers.loadTest ?? 'rrul';
      forward ||= test !== 'tcp_ndown';
      reverse ||= test !== 'tcp_nup';
    }
  }
  return { forward, reverse };
}
