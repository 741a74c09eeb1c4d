import { type Iperf3Result, parseIperf3Json } from './parse-result.js';
import { parseIperf3Text } from './parse-text.js';

/** An iperf3 client output in either form: `-J` JSON (what `run` produces) or the text report people keep from runs by hand. */
export function parseIperf3Output(raw: string, source?: string): Iperf3Result {
  return raw.trimStart().startsWith('{') ? parseIperf3Json(raw, source) : parseIperf3Text(raw, source);
}
