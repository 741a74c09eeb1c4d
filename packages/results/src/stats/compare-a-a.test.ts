// A/A: comparisons between runs of one and the same condition. Every
// coloured verdict among them is a false alarm, so compare must raise one at
// most alpha of the time. The simulated runs look like real lab runs: each
// run has its own level (machine load, placement: ±10 %), its repetitions
// vary less (±2 %), and each repetition records 200 per-packet latencies in a
// histogram beside its scalar figures. tests/results-a-a.test.ts does the
// same with real runs.

import { seededRandom } from '@netbench/core';
import { LatencyHistogram, type Sample } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { compareSamples } from './compare.js';

const random = seededRandom(77);
const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
let next = 0;

function simulatedRun(runId: string, repetitions: number): Sample[] {
  const level = Math.exp(0.1 * gauss());
  return Array.from({ length: repetitions }, (_, r) => {
    const rep = level * Math.exp(0.02 * gauss());
    const h = LatencyHistogram.create('us');
    for (let i = 0; i < 200; i += 1) h.record(40 * rep * Math.exp(0.15 * gauss()));
    const labels = { run_id: runId, benchmark: 'ping', tool: 'ping', test: 'icmp', client_host: 'a', server_host: 'b', ...(repetitions > 1 ? { repetition: r + 1 } : {}) };
    const base = { runId, trialId: `t${r}`, timestamp: 1_763_800_000_000 + next, labels };
    next += 2;
    return [
      { ...base, sampleId: `${runId}-${next}`, metric: 'Average Latency', value: 40 * rep, unit: 'us', histogram: h.encode() },
      { ...base, sampleId: `${runId}-${next + 1}`, metric: 'Transaction Rate', value: 30_000 / rep, unit: 'transactions_per_second' },
    ];
  }).flat();
}

const pool = Array.from({ length: 40 }, (_, i) => simulatedRun(`run${i}`, 3));
const ALARMS = new Set(['better', 'worse', 'higher', 'lower']);

/** Share of rows with a coloured verdict over many A/A comparisons of `perSide` runs a side (disjoint runs of the pool). */
function falseAlarms(perSide: number, comparisons: number): { rate: number; rows: number } {
  let alarms = 0;
  let rows = 0;
  for (let c = 0; c < comparisons; c += 1) {
    const order = pool.map((_, i) => i).sort(() => random() - 0.5);
    const side = (from: number) => order.slice(from, from + perSide).flatMap((i) => pool[i]!);
    const result = compareSamples(side(0), side(perSide), { resamples: 200, seed: c });
    for (const row of result.rows) {
      rows += 1;
      if (ALARMS.has(row.verdict)) alarms += 1;
    }
  }
  return { rate: alarms / rows, rows };
}

describe('A/A comparisons of simulated runs', () => {
  it('never gives a verdict between two single runs, however many packets and repetitions they hold', () => {
    const { rate, rows } = falseAlarms(1, 60);
    expect(rows).toBe(60 * 4);
    expect(rate).toBe(0);
  });

  it('raises a false alarm at most alpha of the time with 3 runs a side (Welch on logs) and 5 a side (Mann–Whitney)', () => {
    // 150 comparisons × 4 rows a side count: a binomial share at 0.05 has a standard error of 0.009 here.
    for (const perSide of [3, 5]) {
      const { rate } = falseAlarms(perSide, 150);
      expect(rate, `${perSide} runs a side`).toBeLessThanOrEqual(0.05 + 0.02);
    }
  }, 60_000);
});
