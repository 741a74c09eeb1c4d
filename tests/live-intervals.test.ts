import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NetbenchEvent } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, readResults } from './helpers/results.js';

// Live values of ordinary trials (ctx.interval, docs/plugins.md): on the lab,
// real ping, netperf and iperf3 emit `trial-interval` events WHILE each trial
// runs — between its `trial-started` and `trial-finished` in the run's one
// event stream (events.jsonl is written in emission order) — and none of them
// is stored. Ordering, not timing.
const SPEC = `name: live-intervals
hosts:
  a: { cloud: local }
  b: { cloud: local }
benchmarks:
  - { tool: ping, client: a, server: b, count: 30, interval: 0.05 }
  - { tool: netperf, client: a, server: b, tests: [TCP_RR], duration: 2 }
  - { tool: iperf3, client: a, server: b, duration: 2, interval: 0.5 }
publish: [{ type: json }]
`;

describe('live values of ordinary trials', () => {
  it('arrive as trial-interval events before each trial ends, and are not stored', async () => {
    const home = tempHome('netbench-live-');
    const spec = join(home, 'live.yaml');
    writeFileSync(spec, SPEC);
    const runsDir = join(home, 'runs');
    const result = await runCli(['run', spec, '--runs-dir', runsDir], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    const dir = onlyRunDir(runsDir);
    const events = readFileSync(join(dir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as NetbenchEvent);
    const { run, samples } = readResults(dir);
    expect(new Set(run.trials.map((t) => t.tool))).toEqual(new Set(['ping', 'netperf', 'iperf3']));
    expect(run.trials.every((t) => t.status === 'succeeded')).toBe(true);

    const expected: Record<string, string> = { ping: 'RTT', netperf: 'TCP_RR_Transaction_Rate', iperf3: 'Interval Throughput' };
    for (const trial of run.trials) {
      const started = events.find((e) => e.type === 'trial-started' && e.trial === trial.id)!;
      const finished = events.find((e) => e.type === 'trial-finished' && e.trial === trial.id)!;
      const firstStored = events.find((e) => e.type === 'sample' && e.sample.trialId === trial.id)!;
      const live = events.filter((e): e is Extract<NetbenchEvent, { type: 'trial-interval' }> => e.type === 'trial-interval' && e.trial === trial.id);
      expect(live.length, `${trial.tool}: live events`).toBeGreaterThan(0);
      for (const e of live) {
        expect(e.seq).toBeGreaterThan(started.seq);
        // Every live value goes out before the trial's stored samples (which replace them) and its end.
        expect(e.seq).toBeLessThan(firstStored.seq);
        expect(e.seq).toBeLessThan(finished.seq);
      }
      const values = live.flatMap((e) => e.samples);
      expect(values.every((s) => s.metric === expected[trial.tool])).toBe(true);
      expect(values.every((s) => s.value > 0 && s.sampleId.startsWith('live-') && s.labels['client_host'] === 'a')).toBe(true);
      expect(values.every((s) => typeof s.labels['interval_end'] === 'number')).toBe(true);
    }
    // ping: one live value per reply; the stored record is the final parse, with no live value in it.
    const pingTrial = run.trials.find((t) => t.tool === 'ping')!;
    const pingLive = events.filter((e) => e.type === 'trial-interval' && e.trial === pingTrial.id).flatMap((e) => (e.type === 'trial-interval' ? e.samples : []));
    expect(pingLive).toHaveLength(30);
    expect(samples.some((s) => s.sampleId.startsWith('live-') || s.metric === 'RTT')).toBe(false);
  }, 120_000);
});
