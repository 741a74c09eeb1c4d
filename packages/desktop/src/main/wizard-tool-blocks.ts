import type { WizardAnswers, WizardNetperfTest } from '../shared/bridge-types.js';

/** netperf tests that answer each question, when the wizard was not told which. */
export const DEFAULT_NETPERF_TESTS: Readonly<Record<WizardAnswers['question'], readonly WizardNetperfTest[]>> = {
  latency: ['TCP_RR'],
  throughput: ['TCP_STREAM'],
  pps: ['UDP_RR', 'UDP_STREAM'],
  load: ['TCP_RR'],
  onprem: ['TCP_RR', 'TCP_STREAM'],
};

/**
 * Packets per second are counted with small packets, or the figure is a
 * throughput divided by a packet size: 64-byte UDP datagrams (netperf
 * UDP_STREAM `-m 64`, iperf3 `-l 64`), 1-byte UDP_RR transactions.
 */
export const PPS_PACKET_BYTES = 64;
/**
 * iperf3's UDP rate for the packets-per-second question: 2 Gbit/s of 64-byte
 * datagrams is ~3.9 Mpps offered, more than one flow of any VM or namespace
 * pair forwards, so the packet rate is the limit and the receiver's rate is the answer.
 */
export const PPS_IPERF3_BITRATE = '2G';
/** Seconds of idle link before and after a latency-under-load test's load (flent uses 5; a short wizard run keeps 2). */
const LOAD_IDLE_SECONDS = 2;

/** The benchmark blocks of one tool (two for iperf3 in both directions: `reverse` is one value). */
export function toolBlocks(tool: WizardAnswers['tools'][number], answers: WizardAnswers): Record<string, unknown>[] {
  const duration = answers.durationSeconds;
  const direction = answers.direction ?? 'forward';
  const streams = answers.streams ?? (answers.question === 'throughput' ? 2 : 1);
  const pps = answers.question === 'pps';
  switch (tool) {
    // 20 requests a second: per-packet percentiles without needing root for a short interval.
    case 'ping':
      return [{ count: Math.max(5, Math.round(duration * 20)), interval: 0.05, direction }];
    case 'netperf': {
      const tests = netperfTests(answers.netperfTests ?? DEFAULT_NETPERF_TESTS[answers.question], direction);
      const small = pps && tests.includes('UDP_STREAM') ? { sendSize: PPS_PACKET_BYTES } : {};
      return [{ tests, streams, duration, ...small }];
    }
    case 'iperf3': {
      const protocol = answers.protocol ?? (pps ? 'udp' : 'tcp');
      const block = {
        protocol: protocol === 'both' ? ['tcp', 'udp'] : protocol,
        streams,
        duration,
        // Short runs still draw a time series of several points.
        interval: duration <= 10 ? 0.5 : 1,
        ...(pps && protocol !== 'tcp' ? { length: PPS_PACKET_BYTES, bitrate: PPS_IPERF3_BITRATE } : {}),
      };
      return direction === 'both'
        ? [
            { ...block, reverse: false },
            { ...block, reverse: true },
          ]
        : [{ ...block, reverse: direction === 'reverse' }];
    }
    // flent's tests: bulk netperf flows with latency probes running through them.
    case 'load':
      return [{ test: answers.loadTest ?? 'rrul', duration, idle: LOAD_IDLE_SECONDS }];
  }
}

/**
 * Request/response tests go both ways by nature; TCP_STREAM measures
 * client → server and TCP_MAERTS server → client. UDP_STREAM has no reverse
 * test in netperf: it stays (forward) and the plan shows it so.
 */
function netperfTests(tests: readonly WizardNetperfTest[], direction: WizardAnswers['direction'] & string): string[] {
  const out: string[] = [];
  for (const test of tests) {
    if (test !== 'TCP_STREAM') out.push(test);
    else {
      if (direction !== 'reverse') out.push('TCP_STREAM');
      if (direction !== 'forward') out.push('TCP_MAERTS');
    }
  }
  return [...new Set(out)];
}
