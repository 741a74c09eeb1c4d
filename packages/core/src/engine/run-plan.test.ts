import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyPlugin, LedgerEntry, NetbenchEvent, Sample } from '@netbench/plugin-api';
import { definePlugin, readLedger, z } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEvents } from '../events/read-events.js';
import { createRegistry } from '../registry/create-registry.js';
import { staticRegistry } from '../registry/static-registry.js';
import type { PluginResolver } from '../registry/types.js';
import labCloud from './__fixtures__/lab-cloud.js';
import { exists, labResources, sweep } from './__fixtures__/lab-leftovers.js';
import { type LabPlanOptions, labPlan } from './__fixtures__/lab-plan.js';
import labTool from './__fixtures__/lab-tool.js';
import { EXIT_CODES } from './exit-codes.js';
import type { RunResults } from './run-files.js';
import { runPlan } from './run-plan.js';

let root: string;
let runsDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'nbt-engine-'));
  runsDir = join(root, 'runs');
  // Runs are stored: into the test's folder, never the user's ~/.netbench.
  process.env['NETBENCH_DB'] = join(root, 'netbench.db');
});
afterEach(async () => {
  await sweep(runsDir);
  await rm(root, { recursive: true, force: true });
});

const keepPublisher = definePlugin({
  kind: 'publisher',
  name: 'keep',
  schema: z.strictObject({ file: z.string() }),
  async publish(run, samples, settings: { file: string }) {
    await writeFile(settings.file, JSON.stringify({ status: run.status, count: samples.length }));
    return { location: settings.file, count: samples.length };
  },
});
const boomPublisher = definePlugin({
  kind: 'publisher',
  name: 'boom',
  schema: z.strictObject({}),
  async publish() {
    throw new Error('backend down');
  },
});

const registry = staticRegistry([labCloud, labTool, keepPublisher, boomPublisher] as AnyPlugin[]);

async function run(options: Omit<LabPlanOptions, 'root' | 'runsDir'>, signal?: AbortSignal, onEvent?: (e: NetbenchEvent) => void) {
  const events: NetbenchEvent[] = [];
  const outcome = await runPlan(labPlan({ root, runsDir, ...options }), {
    registry,
    signal,
    abortGraceMs: 500,
    onEvent: (e) => {
      events.push(e);
      onEvent?.(e);
    },
  });
  const runDir = outcome.record.runDir;
  const results = JSON.parse(await readFile(join(runDir, 'results.json'), 'utf8')) as RunResults;
  const ledger = await readLedger(join(runDir, 'ledger.jsonl'));
  return { outcome, events, runDir, results, ledger };
}

const phasesOf = (ledger: LedgerEntry[], type: string) => ledger.filter((e) => e.resource.type === type).map((e) => e.phase);

describe('runPlan', () => {
  it('runs a plan end to end and leaves every file of the run folder', async () => {
    const { outcome, events, runDir, results, ledger } = await run({ trials: [{ mode: 'ok' }, { mode: 'ok' }], publish: [{ type: 'keep', file: join(root, 'kept.json') }] });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    expect(outcome.record.status).toBe('succeeded');
    expect(outcome.record.runId).toMatch(/^\d{8}-\d{6}-[0-9a-z]{6}$/);
    expect(runDir).toBe(join(runsDir, outcome.record.runId));
    expect((await readdir(runDir)).sort()).toEqual(['events.jsonl', 'ledger.jsonl', 'raw', 'results.json', 'samples.jsonl', 'spec.yaml', 'stages.json', 'trials.jsonl']);
    expect(await readFile(join(runDir, 'spec.yaml'), 'utf8')).toContain('name: lab-test');

    // Ledger: each host's folder had an intent, was created, then deleted; each keeper process too.
    expect(phasesOf(ledger, 'dir')).toEqual(['intent', 'created', 'intent', 'created', 'deleted', 'deleted']);
    expect(phasesOf(ledger, 'process')).toEqual(['created', 'created', 'deleted', 'deleted']);
    expect(ledger.map((e) => e.seq)).toEqual(ledger.map((_, i) => i + 1));
    // Deleted newest first.
    const deletedIds = ledger.filter((e) => e.phase === 'deleted').map((e) => e.resource.id);
    const createdIds = ledger.filter((e) => e.phase === 'created').map((e) => e.resource.id);
    expect(deletedIds).toEqual([...createdIds].reverse());
    for (const resource of await labResources(runDir)) expect(exists(resource)).toBe(false);

    // Events: sequenced, persisted exactly as delivered, phases in order.
    const persisted = await readEvents(join(runDir, 'events.jsonl'));
    expect(persisted).toEqual(events);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]!.type).toBe('run-started');
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', status: 'succeeded', failedTrials: 0, teardownErrors: 0 });
    expect(events.filter((e) => e.type === 'phase-started').map((e) => (e as { phase: string }).phase)).toEqual(['provision', 'prepare', 'execute', 'teardown', 'publish']);
    expect(events.filter((e) => e.type === 'host-ready')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'tool-checked')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'trial-progress').length).toBeGreaterThanOrEqual(4);
    expect(events.filter((e) => e.type === 'plugin-call').map((e) => (e as { hook: string }).hook)).toEqual(
      expect.arrayContaining(['provision', 'check', 'serve', 'run', 'server.stop', 'teardown', 'publish']),
    );
    // The plugin's warning became a warning event naming it.
    const warning = events.find((e) => e.type === 'warning');
    expect(warning).toMatchObject({ plugin: 'lab-echo', message: expect.stringContaining('server on b') });
    // The server started in prepare was stopped in teardown.
    const serverPid = Number(/pid (\d+)/.exec((warning as { message: string }).message)![1]);
    expect(existsSync(`/proc/${serverPid}`)).toBe(false);

    // Samples: two per trial plus one per phase before publish, in samples.jsonl as in results.json.
    const trialSamples = results.samples.filter((s) => s.trialId);
    expect(trialSamples).toHaveLength(4);
    const streamed = (await readFile(join(runDir, 'samples.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Sample);
    expect(streamed).toEqual(results.samples);
    expect(results.samples).toEqual(outcome.samples);
    expect(events.filter((e) => e.type === 'sample')).toHaveLength(results.samples.length);
    expect(results.samples.map((s) => s.sampleId)).toEqual(results.samples.map((_, i) => `${outcome.record.runId}-${i + 1}`));
    const echo = trialSamples[0]!;
    expect(echo).toMatchObject({ runId: outcome.record.runId, trialId: 't0001', metric: 'echo_time', unit: 'ms' });
    expect(echo.labels).toMatchObject({
      run_id: outcome.record.runId,
      spec: 'lab-test',
      benchmark: 'lab',
      tool: 'lab-echo',
      test: 'echo',
      seconds: 0,
      size: 0,
      ip_type: 'internal',
      client_host: 'a',
      server_host: 'b',
      client_cloud: 'lab',
      client_zone: 'lab-a',
      client_region: 'lab',
      client_machine_type: 'process',
      'lab-echo_gnu': true,
      echoed: 't0001 -> 127.0.0.1; attempt 0',
      mode: 'tool:ok', // the tool's own label wins over the parameter
    });
    expect(echo.labels['lab-echo_version']).toMatch(/^\d+\.\d+/);
    expect(echo.labels['host_client_dir']).toContain(outcome.record.runId);
    expect(Math.abs(echo.timestamp - Date.now())).toBeLessThan(60_000);
    expect(trialSamples[1]!.timestamp).toBe(1_700_000_000_000); // a tool's own timestamp is kept
    const phases = results.samples.filter((s) => s.metric === 'phase_duration');
    expect(phases.map((s) => s.labels['phase'])).toEqual(['provision', 'prepare', 'execute', 'teardown']);
    expect(phases.every((s) => s.unit === 's' && s.value >= 0 && s.trialId === undefined)).toBe(true);

    // Raw outputs kept per trial; the record lists them.
    expect(await readFile(join(runDir, 'raw', 't0002-echo.txt'), 'utf8')).toBe('t0002 -> 127.0.0.1; attempt 0\n');
    expect(results.run.trials.map((t) => [t.id, t.status, t.attempts, t.sampleCount, t.rawFiles])).toEqual([
      ['t0001', 'succeeded', 1, 2, ['raw/t0001-echo.txt']],
      ['t0002', 'succeeded', 1, 2, ['raw/t0002-echo.txt']],
    ]);
    expect(results.run.hosts.map((h) => [h.id, h.cloud, h.internalIp])).toEqual([
      ['a', 'lab', '127.0.0.1'],
      ['b', 'lab', '127.0.0.1'],
    ]);
    expect(results.run.phases.map((p) => [p.phase, p.ok])).toEqual([
      ['provision', true],
      ['prepare', true],
      ['execute', true],
      ['teardown', true],
      ['publish', true],
    ]);
    expect(results.run).toMatchObject({ name: 'lab-test', specText: expect.stringContaining('hosts:'), errors: [] });

    // The publisher saw the finished run.
    expect(JSON.parse(await readFile(join(root, 'kept.json'), 'utf8'))).toEqual({ status: 'succeeded', count: results.samples.length });
    expect(events.find((e) => e.type === 'published' && e.publisher === 'keep')).toMatchObject({ count: results.samples.length });
  });

  it('records a failing trial, keeps its raw output, runs the others and still tears down', async () => {
    const { outcome, results, runDir } = await run({ trials: [{ mode: 'fail' }, { mode: 'ok' }] });
    expect(outcome.exitCode).toBe(EXIT_CODES.trialsFailed);
    expect(outcome.record.status).toBe('failed');
    const [failed, ok] = results.run.trials;
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, sampleCount: 0, rawFiles: ['raw/t0001-echo.txt'] });
    expect(failed!.error).toBe('[plugin lab-echo] run: false exited with 1');
    expect(ok).toMatchObject({ status: 'succeeded', sampleCount: 2 });
    expect(existsSync(join(runDir, 'raw', 't0001-echo.txt'))).toBe(true);
    for (const resource of await labResources(runDir)) expect(exists(resource)).toBe(false);
  });

  it('fails a trial whose server address is not an address before the tool runs, and still tears down', async () => {
    const { outcome, results, runDir } = await run({ trials: [{ mode: 'ok' }], b: { internalIp: '-f/etc/passwd' } });
    expect(outcome.exitCode).toBe(EXIT_CODES.trialsFailed);
    const [trial] = results.run.trials;
    expect(trial).toMatchObject({ status: 'failed', attempts: 0, rawFiles: [] });
    expect(trial!.error).toBe('host b: internal address "-f/etc/passwd" is not an IP address or host name');
    for (const resource of await labResources(runDir)) expect(exists(resource)).toBe(false);
  });

  it('retries a trial that failed with a retryable error', async () => {
    const { outcome, events, results } = await run({ trials: [{ mode: 'retry' }] });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    expect(results.run.trials[0]).toMatchObject({ status: 'succeeded', attempts: 2, rawFiles: ['raw/t0001-echo.txt', 'raw/t0001-retry1-echo.txt'] });
    expect(events.filter((e) => e.type === 'trial-started').map((e) => (e as { attempt: number }).attempt)).toEqual([0, 1]);
    expect(events.some((e) => e.type === 'warning' && e.message.includes('retrying: [plugin lab-echo] run: port busy'))).toBe(true);
    expect(results.samples.find((s) => s.metric === 'echo_time')!.labels['echoed']).toBe('t0001 -> 127.0.0.1; attempt 1');
  });

  it('does not retry past options.retries', async () => {
    const { outcome, results } = await run({ trials: [{ mode: 'retry' }], options: { retries: 0 } });
    expect(outcome.exitCode).toBe(EXIT_CODES.trialsFailed);
    expect(results.run.trials[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('runs at most options.concurrency trials at once, in plan order', async () => {
    const { outcome, events } = await run({ trials: [0, 1, 2, 3].map(() => ({ mode: 'sleep' as const, seconds: 0.4 })), options: { concurrency: 2 } });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    let running = 0;
    let most = 0;
    for (const e of events) {
      if (e.type === 'trial-started') most = Math.max(most, ++running);
      if (e.type === 'trial-finished') running -= 1;
    }
    expect(most).toBe(2);
    expect(events.filter((e) => e.type === 'trial-started').map((e) => (e as { trial: string }).trial)).toEqual(['t0001', 't0002', 't0003', 't0004']);
  });

  it('installs a missing tool once and checks again', async () => {
    const { outcome, events, runDir } = await run({ trials: [{ mode: 'ok' }], b: { toolMissing: true } });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    const hooks = events.filter((e) => e.type === 'plugin-call' && e.plugin === 'lab-echo').map((e) => `${(e as { hook: string }).hook}:${(e as { ok: boolean }).ok}`);
    expect(hooks.filter((h) => h.startsWith('check')).sort()).toEqual(['check:false', 'check:true', 'check:true']);
    expect(hooks).toContain('install:true');
    expect(existsSync(join(runDir, 'lab-echo-installed-b'))).toBe(true);
  });

  it("installs through the host's installHost when it has one (the local lab's root namespace)", async () => {
    const { outcome, runDir } = await run({ trials: [{ mode: 'ok' }], b: { toolMissing: true, sharedInstaller: true } });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    expect(existsSync(join(runDir, 'lab-echo-installed-lab-installer'))).toBe(true);
    expect(existsSync(join(runDir, 'lab-echo-installed-b'))).toBe(false);
  });

  it('fails prepare when the tool is missing and installing is off', async () => {
    const { outcome, results } = await run({ trials: [{ mode: 'ok' }], b: { toolMissing: true }, options: { install: false } });
    expect(outcome.exitCode).toBe(EXIT_CODES.provisionFailed);
    expect(results.run.errors[0]).toBe('[plugin lab-echo] check: lab-echo is not installed on host b');
    expect(results.run.trials[0]!.status).toBe('skipped');
  });

  it('isolates publishers: one that throws does not stop the next', async () => {
    const kept = join(root, 'kept.json');
    const { outcome, events, results } = await run({ trials: [{ mode: 'ok' }], publish: [{ type: 'boom' }, { type: 'nope' }, { type: 'keep', file: kept }] });
    expect(JSON.parse(await readFile(kept, 'utf8'))).toMatchObject({ status: 'succeeded' });
    expect(events.filter((e) => e.type === 'error').map((e) => [(e as { plugin?: string }).plugin, e.message])).toEqual([
      ['boom', '[plugin boom] publish: backend down'],
      ['nope', 'publish[1]: no publisher plugin named nope is installed'],
    ]);
    expect(results.run.errors).toHaveLength(2);
    expect(results.run.status).toBe('succeeded');
    expect(results.run.phases.at(-1)).toMatchObject({ phase: 'publish', ok: false });
    // A failed publisher is not a successful run: its own documented code, not 0 and not the generic 1.
    expect(outcome.exitCode).toBe(8);
    expect(outcome.exitCode).toBe(EXIT_CODES.publishFailed);
  });

  it('refuses a spec that names a plugin nobody installed, and still writes results', async () => {
    const plan = labPlan({ root, runsDir, trials: [{ mode: 'ok' }] });
    const outcome = await runPlan(plan, { registry: staticRegistry([labCloud] as AnyPlugin[]) });
    expect(outcome.exitCode).toBe(EXIT_CODES.specInvalid);
    expect(outcome.record.errors).toEqual(['the spec uses tool lab-echo, but no tool plugin named lab-echo is installed']);
    expect(outcome.record.phases.map((p) => p.phase)).toEqual(['teardown', 'publish']);
    expect(existsSync(join(outcome.record.runDir, 'results.json'))).toBe(true);
  });

  it('publishes through the built-in json and csv plugins found by discovery', async () => {
    const installed = createRegistry({ searchDirs: [fileURLToPath(new URL('../../../cli', import.meta.url))] });
    const both: PluginResolver = {
      list: (kind) => [...registry.list(kind), ...installed.list(kind)],
      get: async (kind, name) => (await registry.get(kind, name)) ?? installed.get(kind, name),
    };
    const plan = labPlan({ root, runsDir, trials: [{ mode: 'ok' }], publish: [{ type: 'json' }, { type: 'csv', file: 'out.csv' }] });
    const outcome = await runPlan(plan, { registry: both });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    const pkb = (await readFile(join(outcome.record.runDir, 'results.pkb.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // After the samples come the host counters' lines (source:counters), one per end and counter.
    const sampleLines = pkb.filter((l) => !String(l['labels']).includes('|source:counters|'));
    expect(sampleLines).toHaveLength(outcome.samples.length);
    expect(pkb.slice(0, sampleLines.length)).toEqual(sampleLines);
    expect(pkb[0]).toMatchObject({ metric: 'echo_time', test: 'lab', run_uri: outcome.record.runId, product_name: 'netbench', labels: expect.stringContaining('|client_host:a|') });
    // A publisher's relative file is in the run folder.
    const csv = (await readFile(join(outcome.record.runDir, 'out.csv'), 'utf8')).split('\r\n');
    expect(csv).toHaveLength(outcome.samples.length + 2);
    expect(csv[0]).toMatch(/^run_id,sample_id,trial_id,timestamp,metric,value,unit,/);
  });

  it('refuses to reuse a run id', async () => {
    const plan = labPlan({ root, runsDir, trials: [] });
    await runPlan(plan, { registry, runId: 'same' });
    await expect(runPlan(plan, { registry, runId: 'same' })).rejects.toThrow(/already exists/);
  });
});
