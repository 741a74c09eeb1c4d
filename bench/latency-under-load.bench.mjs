// Latency under load against flent (issue 13): flent's test and netbench's
// `tool: load` test of the same name, back to back on the same two lab
// namespaces, 100 Mbit/s tbf on the bridge ports toward both (a 5 ms and a
// 200 ms queue), with BBR (this machine's default) and CUBIC set in both
// namespaces. Goals: total goodput within 5 % of flent's (netperf's own
// final throughput per flow, summed, in both tools: flent keeps it as each
// series' MEAN_VALUE; the mean of flent's plotted sum series is printed too,
// and overshoots the link with BBR), loaded ICMP
// latency median within 10 % (or 0.5 ms) of flent's, and with CUBIC the deep
// queue's latency increase at least 2.5 × the shallow one's in both tools.
// LUL_TEST (default tcp_nup; rrul works too), LUL_LOAD seconds of load (20),
// LUL_ROUNDS rounds per setting (2; medians).
import { compareWithFlent } from '../tests/helpers/lul-compare.mjs';
import { line, median } from './lib.mjs';

const f1 = (v) => (Number.isFinite(v) ? v.toFixed(1) : '—');
const f2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '—');

export default async function bench() {
  const test = process.env.LUL_TEST ?? 'tcp_nup';
  const load = Number(process.env.LUL_LOAD ?? 20);
  const rounds = Number(process.env.LUL_ROUNDS ?? 2);
  const settings = [
    { cc: 'cubic', queueMs: 5 },
    { cc: 'cubic', queueMs: 200 },
    { cc: 'bbr', queueMs: 5 },
    { cc: 'bbr', queueMs: 200 },
  ];
  line('test, load, idle, rounds', `${test} ${load}s 5s ×${rounds}`);
  const results = await compareWithFlent({ test, load, idle: 5, step: 0.2, settings, rounds });
  const increases = {};
  for (const r of results) {
    const failed = r.netbench.filter((n) => n.status !== 'succeeded');
    if (failed.length) throw new Error(`netbench runs failed: ${failed.map((n) => n.error).join('; ')}`);
    const flent = {
      goodput: median(r.flent.map((x) => (Number.isFinite(x.netperfGoodput) ? x.netperfGoodput : x.goodput))),
      series: median(r.flent.map((x) => x.goodput)),
      loaded: median(r.flent.map((x) => x.loadedP50)),
      idle: median(r.flent.map((x) => x.idleP50)),
    };
    const nb = {
      goodput: median(r.netbench.map((x) => x.goodput)),
      loaded: median(r.netbench.map((x) => x.loadedP50)),
      idle: median(r.netbench.map((x) => x.idleP50)),
      rpm: median(r.netbench.map((x) => x.rpm)),
    };
    increases[`${r.cc}/${r.queueMs}`] = { flent: flent.loaded - flent.idle, netbench: nb.loaded - nb.idle };
    const label = `${r.cc.toUpperCase()}, ${r.queueMs} ms queue`;
    line(`${label}: goodput flent / netbench`, `${f1(flent.goodput)} / ${f1(nb.goodput)} Mbit/s`);
    line(`${label}: flent's plotted sum series, mean over load`, `${f1(flent.series)} Mbit/s`);
    line(`${label}: goodput difference`, `${f1((100 * (nb.goodput - flent.goodput)) / flent.goodput)} %`, '|diff| ≤ 5 %');
    line(`${label}: idle ICMP p50 flent / netbench`, `${f2(flent.idle)} / ${f2(nb.idle)} ms`);
    line(`${label}: loaded ICMP p50 flent / netbench`, `${f2(flent.loaded)} / ${f2(nb.loaded)} ms`, `≤ max(10 %, 0.5 ms) apart`);
    line(`${label}: loaded p50 difference`, `${f2(nb.loaded - flent.loaded)} ms (${f1((100 * (nb.loaded - flent.loaded)) / flent.loaded)} %)`);
    line(`${label}: netbench responsiveness`, `${Math.round(nb.rpm)} RPM`);
    line(`${label}: runs loaded p50 flent`, r.flent.map((x) => f2(x.loadedP50)).join(' '));
    line(`${label}: runs loaded p50 netbench`, r.netbench.map((x) => f2(x.loadedP50)).join(' '));
  }
  for (const cc of ['cubic', 'bbr']) {
    const deep = increases[`${cc}/200`];
    const shallow = increases[`${cc}/5`];
    line(`${cc.toUpperCase()}: deep / shallow latency increase, flent`, `${f1(deep.flent / shallow.flent)} ×`, cc === 'cubic' ? '≥ 2.5 ×' : undefined);
    line(`${cc.toUpperCase()}: deep / shallow latency increase, netbench`, `${f1(deep.netbench / shallow.netbench)} ×`, cc === 'cubic' ? '≥ 2.5 ×' : undefined);
  }
}
