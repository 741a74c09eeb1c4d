// What a demanding user of long studies runs into (docs/long-studies.md):
// continuing a run that another process is running or continuing, a run whose
// spec changed, a random trial order across invocations, stages asked out of
// order or again, Ctrl-C in a staged invocation, and the --json of each.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { namespacesOf } from './helpers/leftovers.js';
import { finishedTrials, json, leftovers, nothingLeft, perTrial, sampleLines } from './helpers/long-study.js';
import { readEvents, readResults, waitFor } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/long-study/spec.yaml');
// Each ping trial takes about 3 s instead of 0.4 s: long enough to act while one runs.
const slow = ['--set', 'benchmarks.0.count=30', '--set', 'benchmarks.1.count=30', '--set', 'benchmarks.2.count=30'];

let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  home = tempHome('netbench-e2e-long-edges-');
  env = { NETBENCH_HOME: home };
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

type RunJson = { runId: string; status: string; exitCode: number; kept: boolean; trials: { id: string; status: string; sampleCount: number }[]; warnings: string[] };
type ErrorJson = { error: { message: string } };

async function provision(runsDir: string, extra: string[] = []): Promise<string> {
  const result = await runCli(['run', spec, '--stage', 'provision', '--runs-dir', runsDir, '--progress', 'none', '--json', ...extra], { env });
  expect(result.code, result.stderr).toBe(0);
  return json<RunJson>(result.stdout).runId;
}

/** The one run folder under `runsDir`, once it exists. */
const runFolderIn = (runsDir: string) =>
  waitFor(
    () => {
      const [only] = existsSync(runsDir) ? readdirSync(runsDir) : [];
      return only ? join(runsDir, only) : undefined;
    },
    60_000,
    'the run folder',
  );

describe('continuing a run that is running', () => {
  it("refuses --resume while the run's own process runs; of two resumes started together after a kill, only one continues", async () => {
    const runsDir = join(home, 'locked');
    const { child, done } = startCli(['run', spec, ...slow, '--runs-dir', runsDir, '--progress', 'none'], { env });
    const runDir = await runFolderIn(runsDir);
    const runId = runDir.split('/').pop()!;
    await waitFor(() => (existsSync(join(runDir, 'events.jsonl')) && readEvents(runDir).some((e) => e.type === 'trial-started') ? true : undefined), 90_000, 'the first trial');
    const meanwhile = await runCli(['run', '--resume', runId, '--runs-dir', runsDir, '--json'], { env });
    expect(meanwhile.code).toBe(1);
    expect(json<ErrorJson>(meanwhile.stdout).error.message).toMatch(
      new RegExp(`^run ${runDir} is still running \\(pid ${child.pid}\\); wait for it or stop it before continuing it$`),
    );
    child.kill('SIGKILL');
    await done;
    const eventsBefore = readEvents(runDir).length;
    const finishedBefore = finishedTrials(runDir);

    const both = [0, 1].map(() => startCli(['run', '--resume', runId, '--runs-dir', runsDir, '--progress', 'none', '--json'], { env }));
    const results = await Promise.all(both.map((b) => b.done));
    expect(results.map((r) => r.code).sort(), results.map((r) => r.stderr).join('\n')).toEqual([0, 1]);
    const refused = results.find((r) => r.code === 1)!;
    expect(json<ErrorJson>(refused.stdout).error.message).toMatch(new RegExp(`^run ${runDir} is still running \\(pid \\d+\\)`));
    // Only the winner ran trials: each trial not finished before the kill started once.
    const started = readEvents(runDir)
      .slice(eventsBefore)
      .filter((e) => e.type === 'trial-started')
      .map((e) => (e as { trial: string }).trial);
    expect(started.sort()).toEqual(['t0001', 't0002', 't0003', 't0004', 't0005', 't0006'].filter((t) => !finishedBefore.includes(t)));
    const out = readResults(runDir);
    const counts = perTrial(out.samples);
    for (const trial of out.run.trials) expect(counts[trial.id], trial.id).toBe(trial.sampleCount);
    expect(await leftovers(runDir)).toEqual(nothingLeft);
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
  });
});

describe('a run whose spec changed', () => {
  it('refuses a different SPEC and an edited run-folder spec, naming the trials; teardown still works', async () => {
    const runsDir = join(home, 'changed');
    const runId = await provision(runsDir);
    const runDir = join(runsDir, runId);
    const edited = join(home, 'edited.yaml');
    writeFileSync(edited, readFileSync(spec, 'utf8').replace('size: [56, 200]', 'size: [56, 300]'));
    const other = await runCli(['run', edited, '--resume', runId, '--runs-dir', runsDir, '--json'], { env });
    expect(other.code).toBe(1);
    expect(json<ErrorJson>(other.stdout).error.message).toBe(
      `${edited} differs from the spec run ${runId} was started with (${join(runDir, 'spec.yaml')}); leave SPEC out to continue with the run's own spec`,
    );
    const same = await runCli(['run', spec, '--resume', runId, '--stage', 'prepare', '--runs-dir', runsDir, '--json'], { env });
    expect(same.code, same.stdout).toBe(0);

    writeFileSync(join(runDir, 'spec.yaml'), readFileSync(edited, 'utf8'));
    const replanned = await runCli(['run', '--resume', runId, '--stage', 'execute', '--runs-dir', runsDir, '--json'], { env });
    expect(replanned.code).toBe(1);
    expect(json<ErrorJson>(replanned.stdout).error.message).toMatch(
      new RegExp(`^run ${runId} plans differently now than at its first invocation \\(trials changed: t0004, t0005, t0006\\): its spec.yaml in the run folder was edited`),
    );
    expect(readEvents(runDir).filter((e) => e.type === 'trial-started')).toEqual([]);
    const teardown = await runCli(['run', '--resume', runId, '--stage', 'teardown', '--runs-dir', runsDir, '--json'], { env });
    expect(teardown.code, teardown.stderr).toBe(0);
    expect(teardown.stderr).toMatch(/plans differently .*; tearing down from the ledger all the same/);
    expect(json<RunJson>(teardown.stdout).warnings.join('\n')).toMatch(/plans differently .*; tearing down from the ledger all the same/);
    expect(await leftovers(runDir)).toEqual(nothingLeft);
  });

  it('order: random without a seed: every invocation runs the trial order the first one drew', async () => {
    const runsDir = join(home, 'random');
    const runId = await provision(runsDir, ['--set', 'options.order=random']);
    const runDir = join(runsDir, runId);
    const planned = readResults(runDir).run.trials.map(({ id, client, server, params }) => ({ id, client, server, params }));
    const sets = json<{ sets: string[] }>(readFileSync(join(runDir, 'stages.json'), 'utf8')).sets;
    expect(sets).toEqual(['options.order=random', expect.stringMatching(/^options\.seed=\d+$/)]);
    const rest = await runCli(['run', '--resume', runId, '--runs-dir', runsDir, '--json'], { env });
    expect(rest.code, rest.stderr).toBe(0);
    const ran = readResults(runDir).run.trials.map(({ id, client, server, params }) => ({ id, client, server, params }));
    expect(ran).toEqual(planned);
  });
});

describe('stages out of order, again, or refused', () => {
  it('says what to do instead, in --json too', async () => {
    const runsDir = join(home, 'order');
    const newAtExecute = await runCli(['run', spec, '--stage', 'execute', '--runs-dir', runsDir, '--json'], { env });
    expect(newAtExecute.code).toBe(1);
    expect(json<ErrorJson>(newAtExecute.stdout).error.message).toBe('a new run starts with provision; continue run RUN with --resume RUN --stage execute');
    const backwards = await runCli(['run', spec, '--stage', 'teardown-provision', '--runs-dir', runsDir, '--json'], { env });
    expect(json<ErrorJson>(backwards.stdout).error.message).toBe('--stage teardown-provision: teardown comes after provision');
    const unknown = await runCli(['run', spec, '--stage', 'measure', '--runs-dir', runsDir, '--json'], { env });
    expect(json<ErrorJson>(unknown.stdout).error.message).toBe('--stage measure: expected one of provision|prepare|execute|teardown or a range like provision-prepare');
    const withSet = await runCli(['run', '--resume', 'x', '--set', 'options.retries=0', '--json'], { env });
    expect(json<ErrorJson>(withSet.stdout).error.message).toMatch(/^--resume continues a run as it was planned/);
    const nowhere = await runCli(['run', '--resume', 'no-such-run', '--runs-dir', runsDir, '--json'], { env });
    expect(json<ErrorJson>(nowhere.stdout).error.message).toBe(
      `${join(runsDir, 'no-such-run')}: no run to continue there (no stages.json); give a run id or folder from \`netbench run\``,
    );
    expect(existsSync(join(runsDir, 'no-such-run'))).toBe(false);

    const runId = await provision(runsDir);
    // --json alone keeps stderr quiet (no progress); --progress plain shows the run's warnings there.
    const again = await runCli(['run', '--resume', runId, '--stage', 'provision', '--runs-dir', runsDir, '--progress', 'plain', '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(json<RunJson>(again.stdout)).toMatchObject({
      runId,
      status: 'succeeded',
      kept: true,
      warnings: expect.arrayContaining([`run ${runId}: provision was done by an earlier invocation; its fleet is kept, nothing is made again`]),
    });
    expect(again.stderr).toContain(`warning: run ${runId}: provision was done by an earlier invocation; its fleet is kept, nothing is made again`);
    expect(namespacesOf(runId)).toHaveLength(4); // three hosts and the hub
    const keepAtTeardown = await runCli(['run', '--resume', runId, '--stage', 'teardown', '--keep', '--runs-dir', runsDir, '--json'], { env });
    expect(keepAtTeardown.code).toBe(1);
    expect(json<ErrorJson>(keepAtTeardown.stdout).error.message).toBe('--keep keeps the hosts after execute, --stage teardown deletes them: give one or the other');
    expect(namespacesOf(runId)).toHaveLength(4); // three hosts and the hub
    const teardown = await runCli(['run', '--resume', runId, '--stage', 'teardown', '--runs-dir', runsDir, '--json'], { env });
    expect(teardown.code, teardown.stderr).toBe(0);
    expect(await leftovers(join(runsDir, runId))).toEqual(nothingLeft);
    const finished = await runCli(['run', '--resume', runId, '--runs-dir', runsDir, '--json'], { env });
    expect(finished.code).toBe(1);
    expect(json<ErrorJson>(finished.stdout).error.message).toBe(`run ${runId} is finished (torn down); start a new run instead`);
  });
});

describe('Ctrl-C in a staged invocation', () => {
  it('--stage provision-execute interrupted mid-trial keeps the fleet (exit 130); --resume runs the cut-off trial and the rest once', async () => {
    const runsDir = join(home, 'sigint');
    const { child, done } = startCli(['run', spec, ...slow, '--stage', 'provision-execute', '--runs-dir', runsDir, '--progress', 'none', '--json'], { env });
    const runDir = await runFolderIn(runsDir);
    await waitFor(
      () => (existsSync(join(runDir, 'events.jsonl')) && readEvents(runDir).some((e) => e.type === 'trial-started' && e.index === 1) ? true : undefined),
      90_000,
      'the second trial',
    );
    child.kill('SIGINT');
    const interrupted = await done;
    expect(interrupted.code, interrupted.stderr).toBe(130);
    const out = json<RunJson>(interrupted.stdout);
    expect(out).toMatchObject({ status: 'interrupted', exitCode: 130, kept: true });
    const runId = out.runId;
    expect(namespacesOf(runId)).toHaveLength(4); // asked to keep them (three hosts and the hub), and kept
    expect(finishedTrials(runDir)).toEqual(['t0001']);

    const resumed = await runCli(['run', '--resume', runId, '--runs-dir', runsDir, '--progress', 'none', '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const results = readResults(runDir);
    expect(results.run.trials.map((t) => t.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded']);
    const counts = perTrial(results.samples);
    for (const trial of results.run.trials) expect(counts[trial.id], trial.id).toBe(trial.sampleCount);
    expect(perTrial(sampleLines(runDir))).toEqual(counts);
    expect(await leftovers(runDir)).toEqual(nothingLeft);
  });
});

describe('shards and a machine outside any run', () => {
  it('keeps a static host in one shard, and splits across shards only when options.sharedHosts names it', async () => {
    const gateway = join(import.meta.dirname, 'scenarios/long-study/shared-gateway.yaml');
    type Split = { shards: { index: number; trials: number; fleet: string[] }[]; warnings: string[] };
    const alone = await runCli(['plan', gateway, '--shards', '4', '--out', join(home, 'gateway-alone'), '--json'], { env });
    expect(alone.code, alone.stderr).toBe(0);
    const kept = json<Split>(alone.stdout);
    expect(kept.shards.map((s) => s.trials)).toEqual([8, 0, 0, 0]);
    expect(kept.warnings).toContain('shards 1, 2, 3 have no trials (the plan has fewer independent parts than 4 shards)');
    const shared = await runCli(['plan', gateway, '--shards', '4', '--set', 'options.sharedHosts=[gateway]', '--out', join(home, 'gateway-shared'), '--json'], { env });
    expect(shared.code, shared.stderr).toBe(0);
    const split = json<Split>(shared.stdout);
    expect(split.shards.map((s) => s.trials)).toEqual([2, 2, 2, 2]);
    expect(split.shards.every((s) => s.fleet.includes('gateway'))).toBe(true);
    // Each shard spec is self-contained: it says which shard it is and that the gateway is shared.
    const written = parse(readFileSync(join(home, 'gateway-shared', 'shard-3.yaml'), 'utf8')) as { options: Record<string, unknown> };
    expect(written.options).toMatchObject({ shard: { index: 3, count: 4 }, sharedHosts: ['gateway'] });
  });
});
