// Packets per second, 1 client × 3 servers on the local lab (issue 14's
// check): netbench's synchronized-flows aggregate against the sum of the
// same netperf UDP_RR commands (1-byte messages, 8 in flight) started
// together by hand on the same namespaces, 5 rounds interleaved
// (hand, netbench, ..., hand), medians compared. Goal: within 10 %.
import { comparePps } from '../tests/helpers/pps-compare.mjs';
import { line } from './lib.mjs';

const fmt = (v) => `${Math.round(v).toLocaleString('en-US')}`;

export default async function bench() {
  const r = await comparePps({ servers: 3, duration: 5, burst: 8, rounds: 5 });
  const failed = r.netbench.runs.filter((run) => run.status !== 'succeeded');
  if (failed.length) throw new Error(`netbench runs failed: ${failed.map((f) => f.error).join('; ')}`);
  line('netbench aggregate UDP_RR (median of 5)', `${fmt(r.netbench.transactions)} tx/s`);
  line('netperf by hand, sum of 3 started together (median of 6)', `${fmt(r.byHand.transactions)} tx/s`);
  const diff = (100 * (r.netbench.transactions - r.byHand.transactions)) / r.byHand.transactions;
  line('difference', `${diff.toFixed(1)} %`, '|diff| ≤ 10 %');
  line('netbench aggregate packets/s (median)', `${fmt(median(r.netbench.runs.map((x) => x.packets)))} pkt/s`);
  line('start skew between flows (median)', `${median(r.netbench.runs.map((x) => x.skewMs)).toFixed(3)} ms`);
  line('netbench runs (tx/s)', r.netbench.runs.map((x) => fmt(x.transactions)).join(' '));
  line('by-hand runs (tx/s)', r.byHand.runs.map((x) => fmt(x.transactions)).join(' '));
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
