// irtt on the local lab: netbench's irtt plugin against the same irtt client
// run by hand on the same two namespaces and server, interleaved (hand,
// netbench, ..., hand), RTT medians compared; and ping on the same pair at
// the same interval, since irtt (user space, UDP) and ping (kernel ICMP
// timestamps) differ by design. Goal: netbench within 10 % of by hand.
import { labTrial, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { irttPlugin } from '@netbench/plugin-irtt';
import { line, median } from './lib.mjs';

const INTERVAL = 0.01;
const SECONDS = 3;
const ROUNDS = 3;

export default async function bench() {
  const plugin = irttPlugin({ ports: { first: 2281, last: 2290 } });
  const lab = await twoHostLab({ tag: 'irttbench', subnet: '10.213.91' });
  const t = testTrialContext(120_000);
  try {
    const info = await plugin.check(lab.server, t.ctx);
    const server = await plugin.serve(lab.server, info, t.ctx);
    const port = server.data.port;
    const byHand = async () => {
      const r = await lab.client.exec(['irtt', 'client', '-i', `${INTERVAL * 1000}ms`, '-d', `${SECONDS}s`, '-q', '-o', '-', `${lab.serverIp}:${port}`]);
      return JSON.parse(r.stdout).stats.rtt.median / 1e6;
    };
    const viaNetbench = async () => {
      const trial = await labTrial(plugin, lab, { interval: INTERVAL, duration: SECONDS }, { serverHandle: server, serverInfo: info, clientInfo: info });
      const { samples } = await plugin.run(trial, t.ctx);
      return samples.find((s) => s.metric === 'rtt_median').value;
    };
    const ping = async () => {
      const r = await lab.client.exec(['ping', '-n', '-c', String(SECONDS / INTERVAL), '-i', String(INTERVAL), lab.serverIp]);
      const rtts = [...r.stdout.matchAll(/time=([\d.]+) ms/g)].map((m) => Number(m[1]));
      return median(rtts);
    };
    const hand = [await byHand()];
    const nb = [];
    const pings = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      nb.push(await viaNetbench());
      hand.push(await byHand());
      pings.push(await ping());
    }
    await server.stop();
    const diff = (100 * (median(nb) - median(hand))) / median(hand);
    line(`irtt RTT median via netbench (${INTERVAL * 1000} ms, ${SECONDS} s, median of ${ROUNDS})`, `${(median(nb) * 1000).toFixed(1)} µs`);
    line(`irtt RTT median by hand (median of ${ROUNDS + 1})`, `${(median(hand) * 1000).toFixed(1)} µs`);
    line('difference', `${diff.toFixed(1)} %`, '|diff| ≤ 10 %');
    line(`ping RTT median on the same pair (${INTERVAL * 1000} ms)`, `${(median(pings) * 1000).toFixed(1)} µs`);
    line('runs: netbench / by hand / ping (µs)', [nb, hand, pings].map((xs) => xs.map((x) => (x * 1000).toFixed(0)).join(' ')).join(' | '));
  } finally {
    t.dispose();
    await lab.close();
  }
}
