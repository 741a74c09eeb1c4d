import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyPlugin, NetbenchEvent } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlan } from '../../plan/create-plan.js';
import { staticRegistry } from '../../registry/static-registry.js';
import { loadSpec } from '../../spec/load-spec.js';
import labCloud from '../__fixtures__/lab-cloud.js';
import { sweep } from '../__fixtures__/lab-leftovers.js';
import { EXIT_CODES } from '../exit-codes.js';
import { runPlan } from '../run-plan.js';
import flowTool from './__fixtures__/flow-tool.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'nbt-flows-'));
  process.env['NETBENCH_DB'] = join(root, 'netbench.db');
});
afterEach(async () => {
  await sweep(join(root, 'runs'));
  await rm(root, { recursive: true, force: true });
});

const registry = staticRegistry([labCloud, flowTool] as AnyPlugin[]);

async function runFlows(block: string, retries = 0, options: { hostExtra?: Record<string, string>; onEvent?: (event: NetbenchEvent) => void } = {}) {
  const text = [
    'name: flows-test',
    'hosts:',
    ...['c', 's1', 's2', 's3'].map((h) => `  ${h}: { cloud: lab, root: ${root}${options.hostExtra?.[h] ?? ''} }`),
    'benchmarks:',
    `  - { tool: flow-echo, flows: { topology: one-to-many, client: c, servers: [s1, s2, s3] }${block} }`,
    `options: { retries: ${retries}, trialTimeout: 20, runsDir: ${join(root, 'runs')} }`,
  ].join('\n');
  const { spec } = await loadSpec({ text, file: join(root, 'flows.yaml') }, registry);
  const planned = await createPlan(spec, registry);
  const plan = { ...planned, spec: { ...planned.spec, publish: [] } };
  const outcome = await runPlan(plan, { registry, abortGraceMs: 500, ...(options.onEvent ? { onEvent: options.onEvent } : {}) });
  return { plan, outcome, samples: outcome.samples };
}

describe('synchronized flows on the engine', () => {
  it('runs every flow at once and adds the aggregates, each flow labelled with its pair', async () => {
    const { plan, outcome, samples } = await runFlows('');
    expect(plan.trials).toHaveLength(1);
    expect(plan.trials[0]!.flows!.map((f) => `${f.label} ${f.client}->${f.server}`)).toEqual(['c->s1 c->s1', 'c->s2 c->s2', 'c->s3 c->s3']);
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    const finals = samples.filter((s) => s.metric === 'rate' && s.labels['series'] === undefined && s.labels['flow'] !== 'aggregate');
    expect(finals.map((s) => [s.labels['flow'], s.labels['server_host'], s.value]).sort()).toEqual([
      ['c->s1', 's1', 10],
      ['c->s2', 's2', 20],
      ['c->s3', 's3', 30],
    ]);
    const intervals = samples.filter((s) => s.labels['series'] === 'interval');
    expect(intervals).toHaveLength(3);
    const sum = samples.find((s) => s.metric === 'rate' && s.labels['flow'] === 'aggregate')!;
    expect(sum.value).toBe(60);
    expect(sum.labels).toMatchObject({ aggregation: 'sum_of_flows', flow_min: 10, flow_median: 20, flow_max: 30, flow_count: 3, client_host: 'c' });
    expect(sum.labels).not.toHaveProperty('server_host');
    expect(samples.find((s) => s.metric === 'latency' && s.labels['flow'] === 'aggregate')!.value).toBe(2);
    // Not combined by the tool: stays per flow.
    expect(samples.some((s) => s.metric === 'note' && s.labels['flow'] === 'aggregate')).toBe(false);
    const skew = samples.find((s) => s.metric === 'flow_start_skew')!;
    expect(skew.unit).toBe('ms');
    expect(skew.value).toBeGreaterThanOrEqual(0);
    expect(samples.filter((s) => s.metric === 'flow_start_offset')).toHaveLength(3);
    // The spread of the flows' first data: their first interval samples' timestamps.
    const firsts = ['c->s1', 'c->s2', 'c->s3'].map((flow) => Math.min(...intervals.filter((s) => s.labels['flow'] === flow).map((s) => s.timestamp)));
    const dataSkew = samples.find((s) => s.metric === 'flow_first_data_skew')!;
    expect(dataSkew).toMatchObject({ unit: 'ms', labels: { flow: 'aggregate', flow_count: 3 } });
    expect(dataSkew.value).toBeCloseTo(Math.max(...firsts) - Math.min(...firsts), 3);
    expect(samples.filter((s) => s.labels['flow'] !== undefined).every((s) => s.trialId === 't0001')).toBe(true);
  });

  it('fails the trial when a flow fails before the barrier, and no flow measures', async () => {
    const { outcome, samples } = await runFlows(', fail: 1, failAt: setup');
    expect(outcome.exitCode).toBe(EXIT_CODES.trialsFailed);
    expect(outcome.record.trials[0]!.error).toContain('flow c->s2');
    expect(outcome.record.trials[0]!.error).toContain('could not set up');
    expect(samples.filter((s) => s.trialId)).toEqual([]);
  });

  it('aborts the other flows when one fails while running, keeping every raw output', async () => {
    const { outcome } = await runFlows(', seconds: 30, fail: 2, failAt: running');
    const trial = outcome.record.trials[0]!;
    expect(trial.status).toBe('failed');
    expect(trial.error).toContain('flow c->s3: [plugin flow-echo] run: flow 2 broke while running');
    // The failing flow's partial output and the aborted flows' outputs are all kept.
    const raw = await readdir(join(outcome.record.runDir, 'raw'));
    expect(raw.filter((f) => f.includes('partial'))).toEqual(['t0001-f3-partial.txt']);
    expect(raw.filter((f) => f.includes('done')).sort()).toEqual(['t0001-f1-done.txt', 't0001-f2-done.txt']);
  });

  it('retries the whole trial after a retryable flow failure', async () => {
    const { outcome, samples } = await runFlows(', fail: 0, failAt: retryable', 1);
    expect(outcome.record.trials[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    // Only the successful attempt's interval series is kept (one per flow), in results.json too; the failed attempt's raw output stays on disk.
    expect(samples.filter((s) => s.labels['series'] === 'interval')).toHaveLength(3);
    const stored = JSON.parse(await readFile(join(outcome.record.runDir, 'results.json'), 'utf8')) as { samples: { labels: Record<string, unknown> }[] };
    expect(stored.samples.filter((s) => s.labels['series'] === 'interval')).toHaveLength(3);
    expect(outcome.record.trials[0]!.sampleCount).toBe(samples.filter((s) => s.trialId === 't0001').length);
    const raw = await readdir(join(outcome.record.runDir, 'raw'));
    expect(raw).toContain('t0001-f1-partial.txt');
  });

  it('waits before a retry, as a single trial does (the same back-off)', async () => {
    const seen: { type: string; at: number }[] = [];
    const { outcome } = await runFlows(', fail: 0, failAt: retryable', 1, {
      onEvent: (event) => seen.push({ type: event.type === 'warning' && event.message.includes('retrying') ? 'retrying' : event.type, at: performance.now() }),
    });
    expect(outcome.record.trials[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    const retrying = seen.find((e) => e.type === 'retrying')!;
    const second = seen.filter((e) => e.type === 'trial-started')[1]!;
    expect(second.at - retrying.at).toBeGreaterThanOrEqual(240);
  });

  it('refuses a server address that is not an address before any flow runs', async () => {
    const { outcome, samples } = await runFlows('', 0, { hostExtra: { s2: ', internalIp: "-f/etc/passwd"' } });
    const trial = outcome.record.trials[0]!;
    expect(trial).toMatchObject({ status: 'failed', attempts: 0 });
    expect(trial.error).toContain('host s2: internal address "-f/etc/passwd" is not an IP address or host name');
    expect(samples.filter((s) => s.trialId)).toEqual([]);
  });

  it('stops a flow that runs on long after the others finished', async () => {
    const { outcome } = await runFlows(', seconds: 0.2, straggle: 1');
    expect(outcome.record.trials[0]!.error).toMatch(/still running 5 s after flow c->s\d finished; stopped/);
  });
});
