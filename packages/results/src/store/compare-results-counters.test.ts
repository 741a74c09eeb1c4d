import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults, TrialRecord } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveRun, quickstartRun } from './__fixtures__/derive-run.js';
import { compareResults } from './compare-results.js';
import { withStore } from './with-store.js';

const root = mkdtempSync(join(tmpdir(), 'nbt-compare-counters-'));
const db = join(root, 'netbench.db');

/** The quickstart run with counters on its trials: `retrans` TCP retransmits at the server of each. */
function withCounters(run: RunResults, retrans: number): RunResults {
  const explain = (t: TrialRecord): TrialRecord['explain'] => ({
    diagnoses: [],
    hosts: [{ host: t.server, role: 'server', seconds: 1, protocols: { 'Tcp.RetransSegs': retrans } } as never],
  });
  return { ...run, run: { ...run.run, trials: run.run.trials.map((t) => ({ ...t, explain: explain(t) })) } };
}

const a = withCounters(deriveRun(quickstartRun(), { runId: '20261101-080000-aaaaaa', startedAt: '2026-11-01T08:00:00.000Z' }), 3);
const b = withCounters(deriveRun(quickstartRun(), { runId: '20261102-080000-bbbbbb', startedAt: '2026-11-02T08:00:00.000Z' }), 7);

beforeAll(() =>
  withStore(db, (store) => {
    store.ingest(a);
    store.ingest(b);
  }),
);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("compareResults carries each configuration's counters", () => {
  it('for two runs: every configuration both measured, one value per trial', async () => {
    const { counters } = await compareResults({ db, baseline: { runs: [a.run.runId] }, candidate: { runs: [b.run.runId] } });
    // The two ping trials differ in direction: two configurations, never pooled.
    expect(counters.map((c) => `${c.tool} ${c.test}`).sort()).toEqual(['iperf3 tcp', 'netperf TCP_RR', 'netperf TCP_STREAM', 'ping icmp', 'ping icmp']);
    const pings = counters.filter((c) => c.tool === 'ping');
    expect(new Set(pings.map((c) => c.params['direction'])).size).toBe(2);
    const ping = pings[0]!;
    expect(ping.trials).toEqual({ baseline: 1, candidate: 1 });
    expect(ping.counters.find((k) => k.name === 'tcp_retrans_segs')).toMatchObject({ baseline: { median: 3 }, candidate: { median: 7 } });
    expect(ping.limitedBy.baseline).toEqual([expect.objectContaining({ rule: 'none', of: ping.trials.baseline })]);
  });

  it('for label selections: only the trials whose samples were selected', async () => {
    const { counters } = await compareResults({
      db,
      baseline: {
        labels: [
          ['run_id', a.run.runId],
          ['tool', 'netperf'],
        ],
      },
      candidate: {
        labels: [
          ['run_id', b.run.runId],
          ['tool', 'netperf'],
        ],
      },
    });
    expect(counters.map((c) => c.test).sort()).toEqual(['TCP_RR', 'TCP_STREAM']);
    expect(counters.every((c) => c.trials.baseline === 1 && c.trials.candidate === 1)).toBe(true);
  });
});
