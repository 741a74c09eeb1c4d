import { LatencyHistogram } from '@netbench/plugin-api';
import { labTrial, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from './index.js';

// Two real hosts: network namespaces joined by a veth pair (needs root), removed afterwards.
const lab = await twoHostLab({ tag: 'sockperf' });
afterAll(async () => {
  await lab.close();
});

describe('sockperf between two hosts (real processes)', () => {
  it('serves, measures ping-pong over UDP with a histogram of every observation, and stops', async () => {
    // A trial context records what run saves in a temp run folder; dispose removes it.
    const t = testTrialContext(20_000);
    const info = await plugin.check(lab.client, t.ctx);
    expect(info.version).toMatch(/^\d+\.\d+/);
    const handle = await plugin.serve!(lab.server, info, t.ctx);
    try {
      const trial = await labTrial(plugin, lab, { duration: 1 }, { serverHandle: handle, clientInfo: info, serverInfo: info });
      const output = await plugin.run(trial, t.ctx);
      const p50 = output.samples.find((s) => s.metric === 'latency_p50')!;
      const observations = output.samples.find((s) => s.metric === 'observations')!.value;
      expect(p50.value).toBeGreaterThan(0);
      const histogram = LatencyHistogram.decode(p50.histogram!);
      // The full log holds the timed observations sockperf counted.
      expect(histogram.count).toBe(observations);
      expect(output.samples.map((s) => s.metric)).toContain('latency_p99.999');
      expect([...t.saved.keys()]).toEqual([`sockperf.txt`, `sockperf-full-log.csv`]);
      // Kept as the engine keeps them: raw/<trial>-<name>.
      expect(t.saved.get(`sockperf.txt`)).toMatch(/\/raw\/t0001-sockperf\.txt$/);
    } finally {
      await handle.stop();
      await handle.stop();
      t.dispose();
    }
    expect(lab.commands(lab.serverNs).filter((c) => c.startsWith('sockperf'))).toEqual([]);
  });
});
