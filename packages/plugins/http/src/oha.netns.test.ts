import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecOptions, SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram, ToolMissingError } from '@netbench/plugin-api';
import { labTrial, type TwoHostLab, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOha } from './check.js';
import { httpPlugin } from './plugin.js';

const plugin = httpPlugin({ ports: { first: 18_320, last: 18_339 } });
let lab: TwoHostLab;
// oha comes from crates.io (scripts/install-oha.sh, run by scripts/test.sh, so CI always has it); a developer
// machine without it skips these two tests rather than failing: the ab and wrk tests cover the plugin otherwise.
let hasOha = false;

beforeAll(async () => {
  lab = await twoHostLab({ tag: 'http-oha', subnet: '10.213.16' });
  hasOha = (await findOha(lab.client, new AbortController().signal)) !== undefined;
});
afterAll(async () => {
  await lab?.close();
});

const value = (samples: readonly SampleInput[], metric: string, kind?: string) => samples.find((s) => s.metric === metric && s.labels?.error_kind === kind)?.value;

describe('oha at a constant rate against nginx between two namespaces', () => {
  // Under CI (CI=true) or NETBENCH_REQUIRE_SETUP=1 a missing oha is a set-up failure, not a skip.
  it.runIf(process.env['CI'] === 'true' || process.env['NETBENCH_REQUIRE_SETUP'] === '1')('has oha where set-up is required (CI)', () => {
    expect(hasOha, 'oha is missing: scripts/test.sh builds it with packages/plugins/http/scripts/install-oha.sh').toBe(true);
  });

  it('reports offered and achieved rate, percentiles to p99.99 and a histogram of every request', async (test) => {
    if (!hasOha) test.skip();
    const trial = await labTrial(plugin, lab, { generator: 'oha', rate: 200, duration: 2, connections: 4, size: '1K', clientCpus: '0' });
    const t = testTrialContext(60_000);
    try {
      const { samples } = await plugin.run(trial, t.ctx);
      expect(value(samples, 'HTTP_Offered_Rate')).toBe(200);
      const achieved = value(samples, 'HTTP_Request_Rate')!;
      expect(achieved).toBeGreaterThan(0);
      // A constant-rate generator never sends more than it was asked to.
      expect(achieved).toBeLessThanOrEqual(200 * 1.05);
      expect(value(samples, 'HTTP_Errors')).toBe(0);
      expect(value(samples, 'HTTP_Latency_p99_99')).toBeGreaterThanOrEqual(value(samples, 'HTTP_Latency_p50')!);
      const histogram = samples.find((s) => s.metric === 'HTTP_Latency_mean')!.histogram!;
      expect(histogram.count).toBe(value(samples, 'HTTP_Requests'));
      expect(LatencyHistogram.decode(histogram).percentile(50) / 1000).toBeCloseTo(value(samples, 'HTTP_Latency_p50')!, 1);
      const raw = JSON.parse(readFileSync(t.saved.get('oha.json')!, 'utf8')) as { statusCodeDistribution: Record<string, number> };
      expect(raw.statusCodeDistribution['200']).toBe(value(samples, 'HTTP_Successes'));
      expect(samples[0]!.labels?.generator_version).toMatch(/^\d+\.\d+/);
      // Read from /proc as oha started (it prints nothing until the end), past ip netns exec and taskset.
      expect(samples[0]!.labels?.cpu_client_affinity).toBe('0');
    } finally {
      t.dispose();
    }
  });

  it('counts 404s as errors and fails when nothing answers', async (test) => {
    if (!hasOha) test.skip();
    const notFound = await labTrial(plugin, lab, { generator: 'oha', rate: 100, duration: 1, connections: 2, path: '/no-such-object' });
    const t1 = testTrialContext(60_000);
    try {
      const { samples } = await plugin.run(notFound, t1.ctx);
      expect(value(samples, 'HTTP_Successes')).toBe(0);
      expect(value(samples, 'HTTP_Errors', 'status')).toBe(value(samples, 'HTTP_Requests'));
    } finally {
      t1.dispose();
    }
    const refused = await labTrial(plugin, lab, { generator: 'oha', rate: 50, duration: 1, connections: 1, url: 'http://{server}:1/' });
    const t2 = testTrialContext(60_000);
    try {
      await expect(plugin.run(refused, t2.ctx)).rejects.toThrow(/oha on client got no answer .* connect/);
    } finally {
      t2.dispose();
    }
  });

  it('fails with ToolMissingError naming the install script on a host without oha', async () => {
    // The client as a fresh host would be: no oha on PATH, an empty home (so no ~/.cache/netbench/oha).
    const home = mkdtempSync(join(tmpdir(), 'nbt-http-nohome-'));
    const bare = {
      ...lab.client,
      exec: (argv: readonly string[], options: ExecOptions = {}) =>
        lab.client.exec(argv, { ...options, env: { ...options.env, HOME: home, PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } }),
    };
    // Planned as if prepare had passed (check would refuse this host already): run itself must refuse too.
    const clientInfo = { version: 'unchecked', features: {} };
    const trial = { ...(await labTrial(plugin, lab, { generator: 'oha', rate: 50, duration: 1, connections: 1 }, { clientInfo })), client: bare };
    const t = testTrialContext(60_000);
    try {
      await expect(plugin.run(trial, t.ctx)).rejects.toThrow(/oha.*install-oha\.sh/);
      await expect(plugin.run(trial, t.ctx)).rejects.toBeInstanceOf(ToolMissingError);
    } finally {
      t.dispose();
    }
  });
});
