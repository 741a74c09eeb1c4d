// Long studies on the lab (docs/long-studies.md): a run in three invocations,
// a run resumed after SIGKILL, and a plan split into four concurrent shards
// merged into one study (local store and a real PostgreSQL).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults, Sample } from '@netbench/plugin-api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type PgServer, startPostgres } from '../packages/plugins/postgres/src/test-support/pg-server.js';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { namespacesOf } from './helpers/leftovers.js';
import { finishedTrials, json, leftovers, livePids, nothingLeft, perTrial, sampleLines } from './helpers/long-study.js';
import { readEvents, readResults, waitFor } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/long-study/spec.yaml');
const flowsSpec = join(import.meta.dirname, 'scenarios/long-study-flows/spec.yaml');
const TRIALS = ['t0001', 't0002', 't0003', 't0004', 't0005', 't0006'];

let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  home = tempHome('netbench-e2e-long-');
  env = { NETBENCH_HOME: home };
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The runs the results store holds, as `results export` gives them back. */
async function stored(runId: string, db: string): Promise<RunResults> {
  const exported = await runCli(['results', 'export', runId, '--format', 'json', '--db', db], { env });
  expect(exported.code, exported.stderr).toBe(0);
  const [run] = json<RunResults[]>(exported.stdout);
  return run!;
}

/** Each trial's samples once, the same in results.json, samples.jsonl and the store. */
async function expectEachTrialOnce(runDir: string, db: string) {
  const results = readResults(runDir);
  expect(new Set(results.samples.map((s) => s.sampleId)).size).toBe(results.samples.length);
  const counts = perTrial(results.samples);
  for (const trial of results.run.trials) {
    expect(trial.status, trial.id).toBe('succeeded');
    expect(counts[trial.id], trial.id).toBe(trial.sampleCount);
  }
  expect(perTrial(sampleLines(runDir))).toEqual(counts);
  const inStore = await stored(results.run.runId, db);
  expect(perTrial(inStore.samples)).toEqual(counts);
  expect(inStore.samples.map((s) => s.sampleId).sort()).toEqual(results.samples.map((s) => s.sampleId).sort());
  return results;
}

describe('a staged run', () => {
  it('provision → execute → teardown in three invocations keeps the fleet between them and leaves nothing behind', async () => {
    const runsDir = join(home, 'staged');
    const db = join(home, 'staged.db');
    const provision = await runCli(['run', spec, '--stage', 'provision', '--runs-dir', runsDir, '--db', db, '--json'], { env });
    expect(provision.code, provision.stderr).toBe(0);
    const { runId, kept } = json<{ runId: string; kept: boolean }>(provision.stdout);
    expect(kept).toBe(true);
    const runDir = join(runsDir, runId);
    expect(namespacesOf(runId)).toHaveLength(4); // three hosts and the hub
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
    const provisioned = readResults(runDir).run.hosts;
    expect(provisioned.every((h) => h.labels['cpu_count'] !== undefined && h.labels['tcp_congestion_control'] !== undefined)).toBe(true);

    const execute = await runCli(['run', '--resume', runId, '--stage', 'execute', '--runs-dir', runsDir, '--db', db, '--json'], { env });
    expect(execute.code, execute.stderr).toBe(0);
    const executed = json<{ trials: { id: string; status: string }[]; kept: boolean }>(execute.stdout);
    expect(executed.trials.map((t) => t.status)).toEqual(TRIALS.map(() => 'succeeded'));
    expect(executed.kept).toBe(true);
    // The same namespaces were used, found from the ledger: none was made in between,
    // and each host is described exactly as provision described it (so samples are keyed as in a run of one invocation).
    expect(namespacesOf(runId)).toHaveLength(4); // three hosts and the hub
    // Prepare (in the execute invocation) adds each host's fingerprint (docs/explain.md); the rest is as provisioned.
    const afterExecute = readResults(runDir).run.hosts;
    expect(afterExecute.map(({ fingerprint: _fingerprint, ...host }) => host)).toEqual(provisioned);
    expect(afterExecute.every((h) => typeof h.fingerprint?.['kernel'] === 'string')).toBe(true);
    expect(readEvents(runDir).filter((e) => e.type === 'host-ready')).toHaveLength(6);
    const list = await runCli(['results', 'list', '--db', db, '--json'], { env });
    expect(json<{ runs: unknown[] }>(list.stdout).runs).toEqual([]); // published only when the run ends

    const teardown = await runCli(['run', '--resume', runId, '--stage', 'teardown', '--runs-dir', runsDir, '--db', db, '--json'], { env });
    expect(teardown.code, teardown.stderr).toBe(0);
    expect(await leftovers(runDir)).toEqual(nothingLeft);
    const results = readResults(runDir);
    expect(results.run.status).toBe('succeeded');
    expect(results.run.hosts.map((h) => h.id).sort()).toEqual(['a', 'b', 'c']);
    expect(Object.keys(perTrial(results.samples)).sort()).toEqual(TRIALS);
    expect(json<{ done: string[] }>(readFileSync(join(runDir, 'stages.json'), 'utf8')).done).toEqual(['provision', 'execute', 'teardown']);
    const stored = await runCli(['results', 'list', '--db', db, '--json'], { env });
    expect(json<{ runs: { runId: string }[] }>(stored.stdout).runs.map((r) => r.runId)).toEqual([runId]);

    // A finished run cannot be continued.
    const again = await runCli(['run', '--resume', runId, '--runs-dir', runsDir, '--db', db], { env });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/is finished/);
  });

  it('verifies a kept host before reuse: a namespace gone since provision stops execute; teardown still removes the rest', async () => {
    const runsDir = join(home, 'gone');
    const provision = await runCli(['run', spec, '--stage', 'provision', '--runs-dir', runsDir, '--json'], { env });
    expect(provision.code, provision.stderr).toBe(0);
    const { runId } = json<{ runId: string }>(provision.stdout);
    const [gone] = namespacesOf(runId).filter((n) => n.endsWith('-b'));
    execFileSync('ip', ['netns', 'delete', gone!]);
    const execute = await runCli(['run', '--resume', runId, '--stage', 'execute', '--runs-dir', runsDir], { env });
    expect(execute.code).toBe(5);
    expect(execute.stderr).toMatch(new RegExp(`host b: namespace ${gone} is gone`));
    const runDir = join(runsDir, runId);
    expect(readEvents(runDir).filter((e) => e.type === 'trial-started')).toEqual([]);
    const teardown = await runCli(['run', '--resume', runId, '--stage', 'teardown', '--runs-dir', runsDir], { env });
    expect(teardown.code, teardown.stderr).toBe(0);
    expect(await leftovers(runDir)).toEqual(nothingLeft);
  });
});

describe('a run killed with SIGKILL mid-execute', () => {
  it("resumes: finished trials are kept, cut-off ones run again, every trial's samples appear exactly once", async () => {
    const runsDir = join(home, 'killed');
    const db = join(home, 'killed.db');
    const { child, done } = startCli(['run', spec, '--runs-dir', runsDir, '--db', db, '--progress', 'none'], { env });
    const runDir = await waitFor(() => (existsSync(runsDir) && readdirSync(runsDir).length === 1 ? join(runsDir, readdirSync(runsDir)[0]!) : undefined), 60_000, 'the run folder');
    await waitFor(
      () => (existsSync(join(runDir, 'events.jsonl')) && readEvents(runDir).some((e) => e.type === 'trial-started' && e.index === 2) ? true : undefined),
      60_000,
      'the third trial',
    );
    child.kill('SIGKILL');
    await done;
    const runId = runDir.split('/').pop()!;
    expect(namespacesOf(runId)).toHaveLength(4); // really left running (three hosts and the hub)
    const finishedBefore = finishedTrials(runDir);
    expect(finishedBefore.length).toBeGreaterThan(0);
    expect(finishedBefore.length).toBeLessThan(TRIALS.length);
    const eventsBefore = readEvents(runDir).length;

    const resumed = await runCli(['run', '--resume', runId, '--runs-dir', runsDir, '--db', db, '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(json<{ trials: { status: string }[] }>(resumed.stdout).trials.map((t) => t.status)).toEqual(TRIALS.map(() => 'succeeded'));
    const started = readEvents(runDir)
      .slice(eventsBefore)
      .filter((e) => e.type === 'trial-started')
      .map((e) => (e as { trial: string }).trial);
    expect(started.sort()).toEqual(TRIALS.filter((t) => !finishedBefore.includes(t)));
    await expectEachTrialOnce(runDir, db);
    expect(await leftovers(runDir)).toEqual(nothingLeft);
  });

  it("killed while a trial streams interval samples: that trial's partial samples are dropped and it runs again", async () => {
    const runsDir = join(home, 'killed-flows');
    const db = join(home, 'killed-flows.db');
    const { child, done } = startCli(['run', flowsSpec, '--runs-dir', runsDir, '--db', db, '--progress', 'none'], { env });
    const runDir = await waitFor(() => (existsSync(runsDir) && readdirSync(runsDir).length === 1 ? join(runsDir, readdirSync(runsDir)[0]!) : undefined), 60_000, 'the run folder');
    // The second trial streams interval samples (live events) and has not finished: kill now.
    const partOf = (samples: readonly Sample[]) => samples.filter((s) => s.trialId === 't0002');
    const streamed = () => readEvents(runDir).flatMap((e) => (e.type === 'trial-interval' && e.trial === 't0002' ? e.samples : []));
    await waitFor(
      () => (existsSync(join(runDir, 'events.jsonl')) && streamed().length >= 2 && !finishedTrials(runDir).includes('t0002') ? true : undefined),
      90_000,
      'interval samples of t0002',
    );
    child.kill('SIGKILL');
    await done;
    const runId = runDir.split('/').pop()!;
    expect(finishedTrials(runDir)).toEqual(['t0001']);
    // An attempt's interval samples are stored when it succeeds (a failed attempt's never are): none of the cut-off one's is.
    expect(partOf(sampleLines(runDir))).toEqual([]);
    const cutOff = streamed().map((s) => s.sampleId);
    expect(cutOff.length).toBeGreaterThan(0);
    const orphans = livePids(runDir); // the killed invocation's netservers, still serving
    expect(orphans.length).toBeGreaterThan(0);
    const eventsBefore = readEvents(runDir).length;

    const resumed = await runCli(['run', '--resume', runId, '--runs-dir', runsDir, '--db', db, '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    // They were stopped before the cut-off trial ran again, not left to share the hosts with it.
    const warnings = readEvents(runDir)
      .slice(eventsBefore)
      .filter((e) => e.type === 'warning')
      .map((e) => (e as { message: string }).message)
      .join('\n');
    const stopped = [...warnings.matchAll(new RegExp(`stopped \\d+ process(?:es)? an earlier invocation of run ${runId} left running \\(pids ([\\d, ]+)\\)`, 'g'))].flatMap((m) =>
      m[1]!.split(', ').map(Number),
    );
    // (a client of the killed attempt may still end on its own between the kill and the resume)
    expect(stopped.length).toBeGreaterThan(0);
    expect(orphans).toEqual(expect.arrayContaining(stopped));
    const results = await expectEachTrialOnce(runDir, db);
    // None of the killed attempt's samples survived, and no id was used twice.
    const ids = new Set(results.samples.map((s) => s.sampleId));
    expect(cutOff.filter((id) => ids.has(id))).toEqual([]);
    expect(partOf(results.samples).length).toBeGreaterThan(0);
    expect(partOf(results.samples).filter((s) => s.labels['flow'] === 'aggregate').length).toBeGreaterThan(0);
    expect(await leftovers(runDir)).toEqual(nothingLeft);
  });
});

describe('four shards of a 3-host matrix', () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(() => server?.stop());

  it('run as four concurrent processes on their own hosts and merge into one study with the unsharded trial set', async () => {
    const runsDir = join(home, 'shards');
    const db = join(home, 'shards.db');
    const pgEnv = { ...env, NETBENCH_POSTGRES_URL: server.url };
    const publish = 'publish=[{type: json}, {type: postgres}]';
    const plan = await runCli(['plan', spec, '--json'], { env });
    const planned = json<{ trials: { id: string; client: string; server: string; params: unknown }[] }>(plan.stdout).trials;
    expect(planned.map((t) => t.id)).toEqual(TRIALS);

    const split = await runCli(['plan', spec, '--shards', '4', '--out', join(home, 'shard-specs'), '--set', publish, '--study', 'e2e-study', '--json'], { env });
    expect(split.code, split.stderr).toBe(0);
    const shards = json<{ study: string; shards: { index: number; trials: number; file: string }[] }>(split.stdout).shards;
    expect(shards.map((s) => s.trials).reduce((a, b) => a + b, 0)).toBe(TRIALS.length);
    expect(shards.every((s) => s.trials > 0)).toBe(true);

    // Four processes at once: each shard spec file alone, one shared results store.
    const runs = await Promise.all(shards.map((s) => runCli(['run', s.file, '--runs-dir', runsDir, '--db', db, '--json'], { env: pgEnv })));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const runIds = runs.map((r) => json<{ runId: string }>(r.stdout).runId);
    const results = runIds.map((id) => readResults(join(runsDir, id)));
    // Concurrent: every shard's run had started before any of them finished.
    const spans = runIds.map((id) => {
      const events = readEvents(join(runsDir, id)) as { type: string; time: number }[];
      return { start: events.find((e) => e.type === 'run-started')!.time, end: events.findLast((e) => e.type === 'run-finished')!.time };
    });
    expect(Math.max(...spans.map((s) => s.start))).toBeLessThan(Math.min(...spans.map((s) => s.end)));

    // No host conflict: each shard had its own fleet (namespaces named by its run), and only the hosts its trials use.
    for (const [i, r] of results.entries()) {
      const used = new Set(r.run.trials.flatMap((t) => [t.client, t.server]));
      expect(r.run.hosts.map((h) => h.id).sort(), `shard ${i}`).toEqual([...used].sort());
      expect(new Set(r.run.hosts.map((h) => h.labels['netns'])).size).toBe(r.run.hosts.length);
      expect(r.run.labels).toMatchObject({ study: 'e2e-study', shard: `${i}/4` });
      expect(r.samples.every((s) => s.labels['study'] === 'e2e-study')).toBe(true);
    }
    const netns = results.flatMap((r) => r.run.hosts.map((h) => h.labels['netns']));
    expect(new Set(netns).size).toBe(netns.length);

    // Merged: the same trials as the unsharded plan, each once.
    const merged = results.flatMap((r) => r.run.trials).map(({ id, client, server, params }) => ({ id, client, server, params }));
    expect(merged.sort((a, b) => a.id.localeCompare(b.id))).toEqual(planned.map(({ id, client, server, params }) => ({ id, client, server, params })));
    const unsharded = await runCli(['run', spec, '--runs-dir', join(home, 'unsharded'), '--db', db, '--study', 'e2e-whole', '--json'], { env });
    expect(unsharded.code, unsharded.stderr).toBe(0);
    const whole = readResults(join(home, 'unsharded', json<{ runId: string }>(unsharded.stdout).runId));
    expect(merged.map((t) => t.id)).toEqual(whole.run.trials.map((t) => t.id));
    expect(merged.map((t) => t.params)).toEqual(whole.run.trials.map((t) => t.params));

    // The shared stores see one study: the local store by label, PostgreSQL by the record's labels.
    const study = await runCli(['results', 'study', 'e2e-study', '--db', db, '--json'], { env });
    expect(study.code, study.stderr).toBe(0);
    const summary = json<{ runs: { runId: string }[]; trials: number; shards: { count: number; missing: number[] } }>(study.stdout);
    expect(summary.runs.map((r) => r.runId).sort()).toEqual([...runIds].sort());
    expect(summary.trials).toBe(TRIALS.length);
    expect(summary.shards).toEqual({ count: 4, missing: [] });
    // report reads the study as one run: every shard's trials together.
    const report = await runCli(['report', '--study', 'e2e-study', '--db', db, '--format', 'md', '--out', join(home, 'study.md'), '--json'], { env });
    expect(report.code, report.stderr).toBe(0);
    expect(json<{ runIds: string[] }>(report.stdout).runIds).toEqual(['study e2e-study']);
    const markdown = readFileSync(join(home, 'study.md'), 'utf8');
    for (const id of TRIALS) expect(markdown).toContain(id);
    // compare reads each study as one side: every series of the unsharded run meets its shard's counterpart.
    const compared = await runCli(['compare', '--baseline', 'study=e2e-whole', '--candidate', 'study=e2e-study', '--db', db, '--json'], { env });
    expect(compared.code, compared.stderr).toBe(0);
    const comparison = json<{ baseline: { runs: string[] }; candidate: { runs: string[] }; rows: { metric: string }[]; baselineOnly: string[]; candidateOnly: string[] }>(
      compared.stdout,
    );
    expect(comparison.candidate.runs.sort()).toEqual([...runIds].sort());
    expect(comparison.baseline.runs).toHaveLength(1);
    expect(comparison.baselineOnly).toEqual([]);
    expect(comparison.candidateOnly).toEqual([]);
    expect(comparison.rows.length).toBeGreaterThan(0);
    const listed = await runCli(['results', 'list', '--label', 'study=e2e-study', '--db', db, '--json'], { env });
    expect(
      json<{ runs: { runId: string }[] }>(listed.stdout)
        .runs.map((r) => r.runId)
        .sort(),
    ).toEqual([...runIds].sort());
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const rows = await client.query<{ trial_id: string }>(
        "SELECT t.trial_id FROM netbench.trials t JOIN netbench.runs r USING (run_pk) WHERE r.record->'labels'->>'study' = $1 ORDER BY t.trial_id",
        ['e2e-study'],
      );
      expect(rows.rows.map((r) => r.trial_id)).toEqual(TRIALS);
    } finally {
      await client.end();
    }
    // The GitHub Actions recipe's last job, played against this PostgreSQL as the runner's bash would run it.
    const workflow = parse(readFileSync(join(import.meta.dirname, '../examples/schedulers/github-actions-shards.yml'), 'utf8')) as {
      jobs: Record<string, { steps: { run?: string }[] }>;
    };
    const summaryStep = workflow.jobs['study']!.steps.find((step) => step.run?.includes('psql'))!.run!;
    const table = execFileSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', summaryStep], {
      env: { ...process.env, NETBENCH_POSTGRES_URL: server.url, STUDY: 'e2e-study' },
      encoding: 'utf8',
    });
    const rows = [...table.matchAll(/^\s*(\d+\/4)\s*\|\s*(\S+)\s*\|\s*(\d+)\s*$/gm)].map((m) => ({ shard: m[1], runId: m[2], trials: Number(m[3]) }));
    expect(rows.map((r) => r.shard)).toEqual(['0/4', '1/4', '2/4', '3/4']);
    expect(rows.map((r) => r.runId)).toEqual(runIds);
    expect(rows.map((r) => r.trials)).toEqual(shards.map((s) => s.trials));
    for (const id of runIds) expect(await leftovers(join(runsDir, id))).toEqual(nothingLeft);
  });
});
