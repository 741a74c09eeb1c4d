/** The netperf tests this plugin runs (PKB's `netperf_benchmarks` plus the two bulk ones it lacks). */
export const NETPERF_TESTS = ['TCP_RR', 'TCP_CRR', 'TCP_STREAM', 'TCP_MAERTS', 'UDP_RR', 'UDP_STREAM'] as const;

export type NetperfTest = (typeof NETPERF_TESTS)[number];

/** PKB's default `netperf_benchmarks`. */
export const DEFAULT_TESTS: readonly NetperfTest[] = ['TCP_RR', 'TCP_CRR', 'TCP_STREAM', 'UDP_RR'];

/** Request/response tests report a transaction rate and latencies; the others a bit rate. */
export function isRequestResponse(test: NetperfTest): boolean {
  return test === 'TCP_RR' || test === 'TCP_CRR' || test === 'UDP_RR';
}

export function isNetperfTest(name: string): name is NetperfTest {
  return (NETPERF_TESTS as readonly string[]).includes(name);
}

// The first line netperf prints names the test in words, e.g.
// "MIGRATED TCP Connect/Request/Response TEST from ..."; -o CSV output has no other clue.
const BANNER_TESTS: readonly (readonly [RegExp, NetperfTest])[] = [
  [/\bTCP Connect\/Request\/Response TEST\b/i, 'TCP_CRR'],
  [/\bTCP REQUEST\/RESPONSE TEST\b/i, 'TCP_RR'],
  [/\bUDP REQUEST\/RESPONSE TEST\b/i, 'UDP_RR'],
  [/\bTCP STREAM TEST\b/i, 'TCP_STREAM'],
  [/\bTCP MAERTS TEST\b/i, 'TCP_MAERTS'],
  [/\bUDP STREAM TEST\b/i, 'UDP_STREAM'],
];

/** The test a netperf banner line describes, if it is one. */
export function testFromBanner(line: string): NetperfTest | undefined {
  for (const [re, test] of BANNER_TESTS) if (re.test(line)) return test;
  return undefined;
}
