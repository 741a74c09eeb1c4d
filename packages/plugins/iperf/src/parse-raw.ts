import type { ParseOptions, SampleInput } from '@netbench/plugin-api';
import { iperfSamples } from './iperf-samples.js';
import { parseIperfOutput } from './parse/parse-iperf.js';

/** The plugin's `parse`: one iperf 2 output (client's or server's) to samples labelled with the test (the protocol, as iperfTrials names it). */
export function parseIperf(raw: string, options: ParseOptions = {}): SampleInput[] {
  const result = parseIperfOutput(raw, options.source);
  return iperfSamples(result, { test: result.protocol });
}
