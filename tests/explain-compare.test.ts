// Counters compared (docs/explain.md): two real lab runs of one iperf3
// configuration through a tbf link at 50 and at 100 Mbit/s
// (tests/scenarios/explain/compare-shaped.yaml); `netbench compare` shows
// each side's counters per trial and what limited it, and the PerfKit-style
// export carries the counters and the diagnosis.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ComparisonResult } from '@netbench/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { readResults } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/explain/compare-shaped.yaml');

describe('compare shows the counters and the diagnosis of each side', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    home = tempHome('netbench-e2e-explain-compare-');
    env = { NETBENCH_HOME: home };
    for (const rate of ['50mbit', '100mbit']) {
      const runs = join(home, `runs-${rate}`);
      const run = await runCli(['run', spec, '--runs-dir', runs, '--progress', 'none', '--set', `hosts.shaped.link.rate=${rate}`, '--set', 'options.repetitions=2'], { env });
      expect(run.code, run.stderr).toBe(0);
      ids[rate] = readResults(join(runs, readdirSync(runs)[0]!)).run.runId;
    }
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('per configuration: one value per trial on each side, and the tbf rate each side was held at', async () => {
    const result = await runCli(['compare', ids['50mbit']!, ids['100mbit']!, '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    const { counters, rows } = JSON.parse(result.stdout) as ComparisonResult;
    // The samples beside them: the faster link measured faster.
    const throughput = rows.find((r) => r.metric === 'Throughput')!;
    expect(throughput.candidate.value).toBeGreaterThan(1.5 * throughput.baseline.value);
    expect(counters).toHaveLength(1);
    const [c] = counters;
    expect(c).toMatchObject({ benchmark: 'shaped', tool: 'iperf3', test: 'tcp', trials: { baseline: 2, candidate: 2 } });
    expect(c!.params['repetition']).toBeUndefined();
    const counter = (name: string) => c!.counters.find((k) => k.name === name)!;
    for (const name of ['tcp_retrans_segs', 'tcp_out_segs', 'qdisc_overlimits', 'cpu_busiest_busy', 'iperf3.server_cpu_total']) {
      expect(counter(name), name).toBeDefined();
      expect(counter(name).baseline!.n, name).toBe(2);
      expect(counter(name).candidate!.values, name).toHaveLength(2);
    }
    // Segments went out on both sides (each trial's busier end), and the tbf held packets back on both sides.
    expect(counter('tcp_out_segs').baseline!.min).toBeGreaterThan(1000);
    expect(counter('tcp_out_segs').candidate!.min).toBeGreaterThan(1000);
    expect(counter('qdisc_overlimits').baseline!.min).toBeGreaterThan(0);
    expect(counter('qdisc_overlimits').candidate!.min).toBeGreaterThan(0);
    const texts = (side: 'baseline' | 'candidate') => c!.limitedBy[side].map((l) => l.text).join(', ');
    expect(texts('baseline')).toMatch(/shaped-link \d+ % of 50 Mbit\/s/);
    expect(texts('candidate')).toMatch(/shaped-link \d+ % of 100 Mbit\/s/);

    const text = await runCli(['compare', ids['50mbit']!, ids['100mbit']!], { env });
    expect(text.stdout).toMatch(/host counters per trial/);
    expect(text.stdout).toMatch(/limited by: .*shaped-link \d+ % of 50 Mbit\/s.* → .*shaped-link \d+ % of 100 Mbit\/s/);
    expect(text.stdout).toMatch(/tcp_retrans_segs +segments/);
    // A tool's own counter is a row too (its CPU share is never 0; its retransmits may stay 0 on both sides and be left out).
    expect(text.stdout).toMatch(/iperf3\.server_cpu_total/);
  });

  it("each trial shows iperf3's own counters, and the PerfKit-style export carries counters and limited_by", async () => {
    const show = await runCli(['results', 'show', ids['50mbit']!], { env });
    expect(show.stdout).toMatch(/t0001 {2}iperf3 counted: client_cpu_total [\d.]+ percent \(client\)/);
    const out = join(home, 'out.jsonl');
    const exported = await runCli(['results', 'export', ids['100mbit']!, '--format', 'pkb-json', '--out', out], { env });
    expect(exported.code, exported.stderr).toBe(0);
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { metric: string; value: number; unit: string; labels: string });
    const throughput = lines.find((l) => l.metric === 'Throughput')!;
    expect(throughput.labels).toMatch(/\|limited_by:[^|]*shaped-link[^|]*\|/);
    const overlimits = lines.filter((l) => l.metric === 'counters.qdisc_overlimits' && l.labels.includes('|host:shaped|'));
    expect(overlimits).toHaveLength(2);
    for (const l of overlimits) expect(l).toMatchObject({ unit: 'packets', labels: expect.stringContaining('|source:counters|') });
    expect(overlimits.every((l) => l.value > 0)).toBe(true);
    expect(lines.some((l) => l.metric === 'counters.iperf3.server_cpu_total')).toBe(true);
  });
});
