import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LatencyHistogram, type TrialContext } from '@netbench/core';
import { twoHostLab } from '@netbench/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from './index.js';

const dir = await mkdtemp(join(tmpdir(), 'nbt-sockperf-'));
// Two real hosts: network namespaces joined by a veth pair (needs root), removed afterwards.
const lab = await twoHostLab({ tag: 'sockperf' });
afterAll(async () => {
  await lab.close();
  await rm(dir, { recursive: true, force: true });
});

const quiet = { debug() {}, info() {}, warn() {} };

describe('sockperf between two hosts (real processes)', () => {
  it('serves, measures ping-pong over UDP with a histogram of every observation, and stops', async () => {
    const { client, server } = lab;
    const base = { runId: 'test', runDir: dir, signal: AbortSignal.timeout(30_000), log: quiet };
    const info = await plugin.check(client, base);
    expect(info.version).toMatch(/^\d+\.\d+/);
    const handle = await plugin.serve!(server, info, base);
    try {
      const [trial] = plugin.trials(plugin.schema.parse({ duration: 1 }));
      const ctx: TrialContext = {
        ...base,
        timeoutMs: 20_000,
        progress() {},
        async saveRaw(name, content) {
          await writeFile(join(dir, name), content);
          return join(dir, name);
        },
      };
      const output = await plugin.run({ id: 't0001', test: trial!.test, params: trial!.params, client, server, target: lab.serverIp, serverHandle: handle, clientInfo: info, serverInfo: info, attempt: 0 }, ctx);
      const p50 = output.samples.find((s) => s.metric === 'latency_p50')!;
      const observations = output.samples.find((s) => s.metric === 'observations')!.value;
      expect(p50.value).toBeGreaterThan(0);
      const histogram = LatencyHistogram.decode(p50.histogram!);
      // The full log holds the timed observations sockperf counted.
      expect(histogram.count).toBe(observations);
      expect(output.samples.map((s) => s.metric)).toContain('latency_p99.999');
    } finally {
      await handle.stop();
      await handle.stop();
    }
    expect(lab.commands(lab.serverNs).filter((c) => c.startsWith('sockperf'))).toEqual([]);
  });
});
