// Human names for metrics. Samples keep PKB's metric ids (`TCP_RR_Latency_p50`,
// `TCP_STREAM_Throughput`) so PKB dashboards keep working; people read
// `TCP_RR latency p50`, `TCP_STREAM throughput`.

const WORDS: Readonly<Record<string, string>> = {
  util: 'utilisation',
  utilization: 'utilisation',
  stddev: 'std dev',
};

const TEST_WORD_RE = /^[A-Z][A-Z0-9]*$/;
const PERCENTILE_RE = /^p\d+(\.\d+)?$/i;

/**
 * `TCP_RR_Latency_p50` → `TCP_RR latency p50`, `TCP_RR_Transaction_Rate` →
 * `TCP_RR transaction rate`, `transactions_per_second` → `Transactions per
 * second`, `Average Latency` → `Average latency`. A leading test name in
 * capitals (netperf's TCP_RR, UDP_STREAM) is kept as it is; acronyms (CPU,
 * RTT) and percentiles (p99.9) keep their case.
 */
export function metricName(metric: string): string {
  const words = metric.split(/[_\s]+/).filter(Boolean);
  let capitals = 0;
  while (capitals < words.length - 1 && TEST_WORD_RE.test(words[capitals]!)) capitals += 1;
  // Two or more leading capital words are a test name (TCP_RR); one is an acronym (`CPU Util`).
  const prefix = capitals >= 2 ? capitals : 0;
  const test = words.slice(0, prefix).join('_');
  const rest = words.slice(prefix).map((word) => {
    if (PERCENTILE_RE.test(word)) return word.toLowerCase();
    if (TEST_WORD_RE.test(word) && word.length > 1) return word;
    return WORDS[word.toLowerCase()] ?? word.toLowerCase();
  });
  if (test) return [test, ...rest].join(' ');
  const [first = '', ...others] = rest;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...others].join(' ');
}
