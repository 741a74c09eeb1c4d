// Long studies on the lab (docs/long-studies.md): a run in three invocations,
// a run resumed after SIGKILL, and a plan split into four concurrent shards
// merged into one study (local store and a real PostgreSQL).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingResources, readLedger, type Sample } from '@netbench/plugin-api';
import { startPostgres, type PgServer } from '../packages/plugins/postgres/src/test-support/pg-server.js';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { linksOf, namespacesOf } from './helpers/leftovers.js';
import { readEvents, readResults, waitFor } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/long-study/spec.yaml');
const TRIALS = ['t0001', 't0002', 't0003', 't0004', 't0005', 't0006'];

let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  home = tempHome('netbench-e2e-long-');
  env = { NETBENCH_HOME: home };
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const json = <T>(stdout: string): T => JSON.parse(stdout) as T;

/** Every process the lab recorded for a run (the pid files) has exited. */
function livePids(runDir: string): number[] {
  const lab = join(runDir, 'local');
  if (!existsSync(lab)) return [];
  return readdirSync(lab).flatMap((host) => {
    const file = join(lab, host, 'spawned.pids');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => Number(line.split(' ')[0])).filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
  });
}

/** What a run leaves behind: namespaces, links, recorded processes, ledger resources not deleted. */
async function leftovers(runDir: string) {
  const runId = runDir.split('/').pop()!;
  return {
    namespaces: namespacesOf(runId),
    links: linksOf(runId.slice(-6)),
    processes: livePids(runDir),
    ledger: pendingResources(await readLedger(join(runDir, 'ledger.jsonl'))).map((e) => `${e.resource.type} ${e.resource.id}`),
  };
}

const nothingLeft = { namespaces: [], links: [], processes: [], ledger: [] };

function perTrial(samples: readonly Sample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of samples) if (s.trialId) counts[s.trialId] = (counts[s.trialId] ?? 0) + 1;
  return counts;
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
    expect(namespacesOf(runId)).toHaveLength(3);
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);

    const execute = await runCli(['run', '--resume', runId, '--stage', 'execute', '--runs-dir', runsDir, '--db', db, '--json'], { env });
    expect(execute.code, execute.stderr).toBe(0);
    const executed = json<{ trials: { id: string; status: string }[]; kept: boolean }>(execute.stdout);
    expect(executed.trials.map((t) => t.status)).toEqual(TRIALS.map(() => 'succeeded'));
    expect(executed.kept).toBe(true);
    // The same namespaces were used, found from the ledger: none was made in between.
    expect(namespacesOf(runId)).toHaveLength(3);
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
  it('resumes: finished trials are kept, cut-off ones run again, every trial\'s samples appear exactly once', async () => {
    const runsDir = join(home, 'killed');
    const db = join(home, 'killed.db');
    const { child, done } = startCli(['run', spec, '--runs-dir', runsDir, '--db', db, '--progress', 'none'], { env });
    const runDir = await waitFor(() => (existsSync(runsDir) && readdirSync(runsDir).length === 1 ? join(runsDir, readdirSync(runsDir)[0]!) : undefined), 60_000, 'the run folder');
    await waitFor(() => (existsSync(join(runDir, 'events.jsonl')) && readEvents(runDir).some((e) => e.type === 'trial-started' && e.index === 2) ? true : undefined), 60_000, 'the third trial');
    child.kill('SIGKILL');
    await done;
    const runId = runDir.split('/').pop()!;
    expect(namespacesOf(runId)).toHaveLength(3); // really left running
    const finishedBefore = readFileSync(join(runDir, 'trials.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);
    expect(finishedBefore.length).toBeGreaterThan(0);
    expect(finishedBefore.length).toBeLessThan(TRIALS.length);
    const eventsBefore = readEvents(runDir).length;

    const resumed = await runCli(['run', '--resume', runId, '--runs-dir', runsDir, '--db', db, '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const started = readEvents(runDir).slice(eventsBefore).filter((e) => e.type === 'trial-started').map((e) => (e as { trial: string }).trial);
    expect(started.sort()).toEqual(TRIALS.filter((t) => !finishedBefore.includes(t)));

    const results = readResults(runDir);
    expect(results.run.trials.map((t) => t.status)).toEqual(TRIALS.map(() => 'succeeded'));
    expect(new Set(results.samples.map((s) => s.sampleId)).size).toBe(results.samples.length);
    const counts = perTrial(results.samples);
    for (const trial of results.run.trials) expect(counts[trial.id], trial.id).toBe(trial.sampleCount);
    // samples.jsonl agrees with results.json: nothing of the killed attempt is left in it.
    const lines = readFileSync(join(runDir, 'samples.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Sample);
    expect(perTrial(lines)).toEqual(counts);
    expect(await leftovers(runDir)).toEqual(nothingLeft);
    const show = await runCli(['results', 'show', runId, '--db', db, '--json'], { env });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(runId);
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
    const unsharded = await runCli(['run', spec, '--runs-dir', join(home, 'unsharded'), '--db', join(home, 'unsharded.db'), '--json'], { env });
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
    for (const id of runIds) expect(await leftovers(join(runsDir, id))).toEqual(nothingLeft);
  });
});
