import type { ParseOptions } from '@netbench/plugin-api';
import { ParseError, type SampleInput } from '@netbench/plugin-api';

const ANSI_RE = /\x1b\[[0-9;]*m/g;
const ERROR_RE = /^sockperf: ERROR: (.+)$/m;
const NO_REPLY_RE = /No messages were received from the server/;
const AVG_RE = /====> avg-(latency|rtt)=([\d.]+) \(std-dev=([\d.]+)\)/;
const TOTAL_RE = /Total (\d+) observations/;
const PERCENTILE_RE = /^sockperf: ---> percentile ([\d.]+) =\s*([\d.]+)$/gm;
const EXTREME_RE = /^sockperf: ---> <(MAX|MIN)> observation =\s*([\d.]+)$/gm;
const COUNTERS_RE = /# dropped messages = (\d+); # duplicated messages = (\d+); # out-of-order messages = (\d+)/;
const VALID_RE = /\[Valid Duration\] RunTime=([\d.]+) sec; SentMessages=(\d+); ReceivedMessages=(\d+)/;
const PARAMS_RE = /following parameters: (.+)$/m;
const TOTAL_RUN_RE = /\[Total Run\] RunTime=[\d.]+ sec; Warm up time=\d+ msec; SentMessages=(\d+); ReceivedMessages=(\d+)/;
const PROTOCOL_RE = /PORT =\s*\d+ # (UDP|TCP)/;

/** `99.900` → `99.9`, `50.000` → `50`: the suffix of a percentile metric. */
const percentileName = (text: string) => String(Number(text));

/**
 * sockperf's client output (ping-pong or under-load) to samples: the
 * percentiles it prints from p25 to p99.999, min/max/avg/std-dev, the
 * observation count, message counters and rate. Latencies are in usec, as
 * sockperf prints them; one-way (RTT/2) unless it ran with --full-rtt, in
 * which case the metrics are named `rtt_*`. Pure: reads only the text.
 */
export function parseSockperf(raw: string, options: ParseOptions = {}): SampleInput[] {
  const text = raw.replace(ANSI_RE, '');
  const source = options.source;
  const error = ERROR_RE.exec(text);
  if (error) throw new ParseError(`sockperf reported an error: ${error[1]!.trim()}`, source, lineOf(text, error.index));
  if (NO_REPLY_RE.test(text)) throw new ParseError('sockperf received no reply from the server (is it running, is the port reachable?)', source);
  const avg = AVG_RE.exec(text);
  const total = TOTAL_RE.exec(text);
  if (!avg || !total) throw new ParseError('no sockperf latency summary (avg-latency and "Total N observations" lines)', source);

  const prefix = avg[1] === 'rtt' ? 'rtt' : 'latency';
  const labels = {
    mode: options.test ?? guessMode(text),
    protocol: (PROTOCOL_RE.exec(text)?.[1] ?? 'UDP').toLowerCase(),
    latency_kind: prefix === 'rtt' ? 'round-trip' : 'one-way',
  };
  const us = (metric: string, value: number): SampleInput => ({ metric: `${prefix}_${metric}`, value, unit: 'us', labels });
  const samples: SampleInput[] = [us('avg', Number(avg[2])), us('stddev', Number(avg[3]))];
  for (const [, which, value] of text.matchAll(EXTREME_RE)) samples.push(us(which === 'MAX' ? 'max' : 'min', Number(value)));
  const percentiles = [...text.matchAll(PERCENTILE_RE)];
  if (percentiles.length === 0) throw new ParseError('no "percentile" lines in the sockperf summary', source);
  for (const [, percentile, value] of percentiles) samples.push(us(`p${percentileName(percentile!)}`, Number(value)));
  samples.push({ metric: 'observations', value: Number(total[1]), unit: 'count', labels });
  const counters = COUNTERS_RE.exec(text);
  if (counters) {
    samples.push(
      { metric: 'dropped_messages', value: Number(counters[1]), unit: 'count', labels },
      { metric: 'duplicated_messages', value: Number(counters[2]), unit: 'count', labels },
      { metric: 'out_of_order_messages', value: Number(counters[3]), unit: 'count', labels },
    );
  }
  const valid = VALID_RE.exec(text);
  if (valid && Number(valid[1]) > 0) {
    samples.push({ metric: 'message_rate', value: Number(valid[2]) / Number(valid[1]), unit: 'messages/sec', labels });
  }
  return samples;
}

/**
 * The mode when the caller does not say (`netbench import`): the parameter
 * line of a --full-log run names --reply-every; otherwise under-load shows
 * as far fewer replies than messages sent (ping-pong answers every one).
 */
function guessMode(text: string): string {
  const replyEvery = /--reply-every=(\d+)/.exec(PARAMS_RE.exec(text)?.[1] ?? '')?.[1];
  if (replyEvery !== undefined) return Number(replyEvery) > 1 ? 'under-load' : 'ping-pong';
  const run = TOTAL_RUN_RE.exec(text);
  return run && Number(run[2]) * 2 < Number(run[1]) ? 'under-load' : 'ping-pong';
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}
