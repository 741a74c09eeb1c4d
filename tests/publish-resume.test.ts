// A run killed while it publishes (after teardown) is not lost: --resume
// publishes to the store and the publishers it had not finished, once each,
// with the outcome the run had; a second --resume finds it finished.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NetbenchEvent } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, startCli, tempHome } from './helpers/cli.js';
import { json, leftovers, nothingLeft } from './helpers/long-study.js';
import { readEvents, readResults, waitFor } from './helpers/results.js';

const scenario = join(import.meta.dirname, 'scenarios/publish-resume');
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  home = tempHome('netbench-e2e-publish-resume-');
  env = { NETBENCH_HOME: home };
  const modules = join(home, 'plugins/node_modules');
  mkdirSync(join(modules, '@netbench'), { recursive: true });
  // As `plugins add` leaves it: the CLI's SDK linked beside the plugin, which the folder's package.json declares.
  symlinkSync(join(repoRoot, 'packages/plugin-api'), join(modules, '@netbench/plugin-api'));
  cpSync(join(scenario, 'packages/netbench-plugin-stall'), join(modules, 'netbench-plugin-stall'), { recursive: true });
  writeFileSync(join(home, 'plugins/package.json'), JSON.stringify({ name: 'netbench-user-plugins', private: true, dependencies: { 'netbench-plugin-stall': '*' } }));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

type Stored = { runs: { runId: string; status: string }[] };
const published = (events: readonly NetbenchEvent[]) => events.flatMap((e) => (e.type === 'published' ? [e.publisher] : []));

describe('SIGKILL while publishing', () => {
  it("--resume publishes what was left (stall), not what was done (store, json), and keeps the run's samples and outcome", async () => {
    const runsDir = join(home, 'runs');
    const release = join(home, 'release');
    const log = join(home, 'stall.log');
    const sets = ['--set', `publish.1.release=${release}`, '--set', `publish.1.log=${log}`];
    const { child, done } = startCli(['run', join(scenario, 'spec.yaml'), ...sets, '--runs-dir', runsDir, '--progress', 'none'], { env });
    // The stall publisher was called: teardown is over, the store and json have published.
    await waitFor(() => (existsSync(log) && readFileSync(log, 'utf8').includes('attempt') ? true : undefined), 120_000, 'the stall publisher');
    child.kill('SIGKILL');
    await done;
    const runDir = join(runsDir, readFileSync(log, 'utf8').split('\n')[0]!.split(' ')[1]!);
    const runId = runDir.split('/').pop()!;
    const first = readEvents(runDir);
    expect(published(first)).toEqual(['store', 'json']);
    const samplesBefore = readResults(runDir).samples.filter((s) => s.trialId !== undefined).length;
    expect(samplesBefore).toBeGreaterThan(0);
    expect(await leftovers(runDir)).toEqual(nothingLeft);

    writeFileSync(release, '');
    const resumed = await runCli(['run', '--resume', runId, '--runs-dir', runsDir, '--progress', 'none', '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(json<{ status: string }>(resumed.stdout).status).toBe('succeeded');
    const second = readEvents(runDir).slice(first.length);
    expect(published(second)).toEqual(['stall']);
    expect(second.some((e) => e.type === 'warning' && /died while publishing.*done: store, publish\[0\]/.test(e.message))).toBe(true);
    // No trial ran again, nothing was provisioned: the run's samples are the ones it measured.
    expect(second.some((e) => e.type === 'trial-started' || (e.type === 'phase-started' && e.phase !== 'publish'))).toBe(false);
    const { run, samples } = readResults(runDir);
    expect(samples.filter((s) => s.trialId !== undefined).length).toBe(samplesBefore);
    expect(run.phases.map((p) => p.phase)).toContain('publish');
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toEqual([`attempt ${runId}`, `attempt ${runId}`, `published ${runId} ${samples.length}`]);
    const list = await runCli(['results', 'list', '--json'], { env });
    expect(json<Stored>(list.stdout).runs.map((r) => `${r.runId} ${r.status}`)).toEqual([`${runId} succeeded`]);

    const again = await runCli(['run', '--resume', runId, '--runs-dir', runsDir, '--json'], { env });
    expect(again.code).toBe(1);
    expect(json<{ error: { message: string } }>(again.stdout).error.message).toBe(`run ${runId} is finished (torn down); start a new run instead`);
  });
});
