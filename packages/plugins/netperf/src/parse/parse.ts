import type { ParseOptions, SampleInput } from '@netbench/core';
import { streamSamples } from '../samples/stream-samples.js';
import { parseNetperfOutput } from './parse-netperf.js';

/** The plugin's `parse`: one netperf output (any format) to PKB-named samples. */
export function parseNetperf(raw: string, options: ParseOptions = {}): SampleInput[] {
  return streamSamples(parseNetperfOutput(raw, options));
}
