import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyPlugin, CloudPlugin, NetbenchEvent } from '@netbench/plugin-api';
import { definePlugin, NetbenchError, pendingResources, processHost, readLedger } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staticRegistry } from '../../registry/static-registry.js';
import { machineLockDir } from '../../run-id/run-lock.js';
import { asOtherUser, isRoot, OTHER_USER } from '../../run-id/test-support/other-user.js';
import labCloud from '../__fixtures__/lab-cloud.js';
import { exists, labResources, sweep } from '../__fixtures__/lab-leftovers.js';
import { labPlan } from '../__fixtures__/lab-plan.js';
import labTool from '../__fixtures__/lab-tool.js';
import { EXIT_CODES } from '../exit-codes.js';
import { runPlan } from '../run-plan.js';

let root: string;
let runsDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'nbt-stages-'));
  runsDir = join(root, 'runs');
});
afterEach(async () => {
  await sweep(runsDir);
  await rm(root, { recursive: true, force: true });
});

// The engine's lab cloud has no `reattach`: its hosts cannot outlive the process.
const registry = staticRegistry([labCloud, labTool] as AnyPlugin[]);
const plan = () => labPlan({ root, runsDir, trials: [{ mode: 'ok' }, { mode: 'ok' }] });

describe('stages on a cloud that cannot reattach', () => {
  it('refuses --stage provision before anything is made, naming the cloud', async () => {
    const outcome = await runPlan(plan(), { registry, runsDir, runId: '20261125-050000-aaaaaa', stages: { from: 'provision', to: 'provision' } });
    expect(outcome.exitCode).toBe(EXIT_CODES.provisionFailed);
    expect(outcome.record.errors.join('\n')).toMatch(/cloud lab cannot keep hosts between invocations/);
    expect(await readLedger(join(runsDir, '20261125-050000-aaaaaa', 'ledger.jsonl'))).toEqual([]);
  });

  it('still runs every stage in one invocation; an interrupted run is torn down and closed; a new run cannot start past provision', async () => {
    const outcome = await runPlan(plan(), { registry, runsDir, runId: '20261125-050000-bbbbbb' });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    expect(outcome.kept).toBeUndefined();
    expect(outcome.record.trials.map((t) => t.status)).toEqual(['succeeded', 'succeeded']);
    await expect(runPlan(plan(), { registry, runsDir, runId: '20261125-050000-cccccc', stages: { from: 'execute', to: 'execute' } })).rejects.toThrow(
      /a new run starts with provision/,
    );
    expect(existsSync(join(runsDir, '20261125-050000-cccccc'))).toBe(false);
    // SIGINT tears down (as ever): such a run is finished, not resumable; only a killed process leaves one to resume.
    const stop = new AbortController();
    stop.abort();
    await runPlan(plan(), { registry, runsDir, runId: '20261125-050000-dddddd', signal: stop.signal });
    await expect(runPlan(plan(), { registry, runsDir, runId: '20261125-050000-dddddd', resume: true })).rejects.toThrow(/is finished/);
  });
});

// The lab cloud with a `reattach`: hosts found again from the ledger, each checked to still exist.
const keepingCloud = definePlugin({
  ...(labCloud as unknown as CloudPlugin),
  name: 'lab',
  async reattach(requests, ctx) {
    return requests.map((request) => {
      const dir = pendingResources(ctx.ledger.entries).find((e) => e.resource.type === 'dir' && e.resource.host === request.id);
      if (!dir || !exists(dir.resource)) throw new NetbenchError(`lab host ${request.id} is gone`);
      return processHost({
        id: request.id,
        name: request.name,
        cloud: 'lab',
        internalIp: '127.0.0.1',
        zone: 'lab-a',
        region: 'lab',
        machineType: 'process',
        labels: { dir: dir.resource.id },
      });
    });
  },
});
const keeping = staticRegistry([keepingCloud, labTool] as AnyPlugin[]);

describe('an invocation interrupted with the fleet kept', () => {
  it("journals only trials that finished; --resume re-runs the cut-off one, each trial's samples once, and tears down", async () => {
    const runId = '20261125-050000-eeeeee';
    const p = labPlan({ root, runsDir, trials: [{ mode: 'ok' }, { mode: 'sleep', seconds: 30 }, { mode: 'ok' }] });
    const stop = new AbortController();
    const onEvent = (e: NetbenchEvent) => {
      if (e.type === 'trial-started' && e.trial === 't0002') setTimeout(() => stop.abort(), 200);
    };
    const first = await runPlan(p, { registry: keeping, runsDir, runId, stages: { from: 'provision', to: 'execute' }, signal: stop.signal, onEvent, abortGraceMs: 500 });
    expect(first.record.status).toBe('interrupted');
    expect(first.kept).toBe(true);
    const runDir = join(runsDir, runId);
    expect((await labResources(runDir)).every(exists)).toBe(true); // the fleet was kept
    const journaled = (await readFile(join(runDir, 'trials.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { id: string }).id);
    expect(journaled).toEqual(['t0001']);

    const quick = labPlan({ root, runsDir, trials: [{ mode: 'ok' }, { mode: 'ok' }, { mode: 'ok' }] });
    const resumed = await runPlan(quick, { registry: keeping, runsDir, runId, resume: true, stages: { from: 'execute', to: 'teardown' } });
    expect(resumed.exitCode).toBe(EXIT_CODES.ok);
    expect(resumed.record.trials.map((t) => t.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const perTrial = resumed.samples.filter((s) => s.trialId).reduce<Record<string, number>>((n, s) => ({ ...n, [s.trialId!]: (n[s.trialId!] ?? 0) + 1 }), {});
    expect(perTrial).toEqual({ t0001: 2, t0002: 2, t0003: 2 });
    expect(new Set(resumed.samples.map((s) => s.sampleId)).size).toBe(resumed.samples.length);
    expect((await labResources(runDir)).filter(exists)).toEqual([]);
  });
});

describe('a fleet torn down before execute', () => {
  it('is recorded as interrupted, naming the trials that never ran, though teardown itself succeeded', async () => {
    const runId = '20261125-050000-ffffff';
    const p = labPlan({ root, runsDir, trials: [{ mode: 'ok' }, { mode: 'ok' }] });
    const kept = await runPlan(p, { registry: keeping, runsDir, runId, stages: { from: 'provision', to: 'provision' } });
    expect(kept.kept).toBe(true);
    const ended = await runPlan(p, { registry: keeping, runsDir, runId, resume: true, stages: { from: 'teardown', to: 'teardown' } });
    expect(ended.exitCode).toBe(EXIT_CODES.ok);
    expect(ended.record.status).toBe('interrupted');
    expect(ended.record.errors).toContain('torn down before every trial ran: 2 of 2 trials never ran');
    expect((await labResources(join(runsDir, runId))).filter(exists)).toEqual([]);
  });
});

// The run's RAM directory in /dev/shm has a known name (the run id) and anyone may write there.
describe("the run's RAM directory between invocations", () => {
  const squatted = async (runId: string, squat: (ram: string) => void, found: RegExp) => {
    const ram = machineLockDir(runId);
    try {
      const p = labPlan({ root, runsDir, trials: [{ mode: 'ok' }] });
      const kept = await runPlan(p, { registry: keeping, runsDir, runId, stages: { from: 'provision', to: 'provision' } });
      expect(kept.kept).toBe(true);
      // Kept with the fleet, empty: no one else can take the name meanwhile.
      expect(lstatSync(ram).isDirectory()).toBe(true);
      expect(lstatSync(ram).uid).toBe(process.geteuid!());
      expect(readdirSync(ram)).toEqual([]);
      // Gone anyway (a reboot empties /dev/shm), and someone makes it before the run goes on.
      rmSync(ram, { recursive: true });
      squat(ram);
      const resume = () => runPlan(p, { registry: keeping, runsDir, runId, resume: true, stages: { from: 'execute', to: 'teardown' } });
      await expect(resume()).rejects.toThrow(
        new RegExp(`^refusing the run's RAM directory ${ram}: ${found.source}; netbench makes it itself, .* remove it \\(rm -rf -- ${ram}\\) and try again$`),
      );
      expect(lstatSync(ram).isSymbolicLink() || readdirSync(ram).length === 0).toBe(true);
      // The run is not left locked: once the directory is gone it goes on.
      expect(existsSync(join(runsDir, runId, 'run.lock'))).toBe(false);
      rmSync(ram, { recursive: true, force: true });
      const resumed = await resume();
      expect(resumed.exitCode).toBe(EXIT_CODES.ok);
      expect(resumed.record.trials.map((t) => t.status)).toEqual(['succeeded']);
      expect(existsSync(ram)).toBe(false);
    } finally {
      rmSync(ram, { recursive: true, force: true });
    }
  };

  it("stays the run's while the fleet is kept; a link made in its place meanwhile is refused on --resume", async () => {
    const elsewhere = join(root, 'elsewhere');
    await squatted(
      '20261207-050000-rams01',
      (ram) => {
        mkdirSync(elsewhere, { mode: 0o700 });
        symlinkSync(elsewhere, ram);
      },
      /it is a symbolic link/,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  // Root only: only root can act as another user (added with useradd when absent).
  it.skipIf(!isRoot)('a directory another local user made meanwhile is refused on --resume, naming its owner and mode', async () => {
    await squatted(
      '20261207-050000-rams02',
      (ram) => expect(asOtherUser(['mkdir', '-m', '0777', '--', ram]).status).toBe(0),
      new RegExp(`it is owned by ${OTHER_USER} \\(uid \\d+\\) with mode 0777`),
    );
  });
});
