import type { ParseOptions, SampleInput } from '@netbench/plugin-api';
import { streamSamples } from '../samples/stream-samples.js';
import { parseNetperfOutput } from './parse-netperf.js';

/** The plugin's `parse`: one netperf output (any format) to PKB-named samples, labelled with the test that ran (for `netbench import`). */
export function parseNetperf(raw: string, options: ParseOptions = {}): SampleInput[] {
  const result = parseNetperfOutput(raw, options);
  return streamSamples(result, { test: result.test });
}
