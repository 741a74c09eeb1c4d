import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sample, TrialRecord } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreRun } from './restore-run.js';
import { type StageJournal, TrialJournal, writeJournal } from './run-journal.js';

const RUN = '20261125-040000-abc123';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nbt-restore-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const journal: StageJournal = { runId: RUN, sets: ['options.retries=0'], done: ['provision'], provisionStarted: true, startedAt: '2026-11-25T04:00:00.000Z', phases: [] };
const sample = (n: number, trialId?: string): Sample => ({
  runId: RUN,
  sampleId: `${RUN}-${n}`,
  ...(trialId ? { trialId } : {}),
  metric: 'm',
  value: n,
  unit: 'ms',
  timestamp: n,
  labels: {},
});
const trial = (id: string, status: TrialRecord['status'] = 'succeeded'): TrialRecord => ({
  id,
  tool: 'ping',
  test: 'icmp',
  benchmarkName: 'ping',
  params: {},
  cell: {},
  client: 'a',
  server: 'b',
  status,
  attempts: 1,
  rawFiles: [],
  sampleCount: 2,
});
const lines = (samples: Sample[]) => samples.map((s) => `${JSON.stringify(s)}\n`).join('');

describe('restoreRun', () => {
  it('keeps the samples of finished trials once, drops those of a cut-off trial and run-level ones, and rewrites samples.jsonl to match', async () => {
    await writeJournal(dir, journal);
    const trials = new TrialJournal(dir);
    trials.append(trial('t0001'));
    trials.append(trial('t0002', 'failed'));
    trials.close();
    await writeFile(join(dir, 'trials.jsonl'), '{"id":"t0003","sta', { flag: 'a' }); // torn by the kill
    // t0003 streamed samples before the kill; 7 is a phase sample of an earlier invocation; 2 repeats.
    const before = [sample(1, 't0001'), sample(2, 't0001'), sample(2, 't0001'), sample(3, 't0003'), sample(4, 't0003'), sample(7)];
    await writeFile(join(dir, 'samples.jsonl'), `${lines(before)}{"runId":"${RUN}","sampleId":"${RUN}-9`);

    const restored = await restoreRun(dir);
    expect([...restored.finished.keys()]).toEqual(['t0001', 't0002']);
    expect(restored.samples.map((s) => s.sampleId)).toEqual([`${RUN}-1`, `${RUN}-2`]);
    // New sample ids continue after every id ever written, kept or not.
    expect(restored.lastSample).toBe(7);
    expect(await readFile(join(dir, 'samples.jsonl'), 'utf8')).toBe(lines([sample(1, 't0001'), sample(2, 't0001')]));
    expect(restored.journal.sets).toEqual(['options.retries=0']);
  });

  it('refuses a run whose process is still alive, a finished run, and a folder with no stages.json', async () => {
    await expect(restoreRun(dir)).rejects.toThrow(/no stages.json/);
    await writeJournal(dir, { ...journal, done: ['provision', 'execute', 'teardown'] });
    await expect(restoreRun(dir)).rejects.toThrow(/is finished/);
    await writeJournal(dir, journal);
    const alive = spawn('sleep', ['30']);
    try {
      await writeFile(join(dir, 'run.lock'), JSON.stringify({ pid: alive.pid, hostname: hostname() }));
      await expect(restoreRun(dir)).rejects.toThrow(`still running (pid ${alive.pid})`);
    } finally {
      alive.kill();
    }
  });

  it('takes over the lock a dead process left; refuses one taken on another machine, leaving it', async () => {
    await writeJournal(dir, journal);
    const dead = spawn('true');
    await new Promise((done) => dead.on('exit', done));
    await writeFile(join(dir, 'run.lock'), JSON.stringify({ pid: dead.pid, hostname: hostname() }));
    await restoreRun(dir);
    expect(JSON.parse(await readFile(join(dir, 'run.lock'), 'utf8'))).toMatchObject({ pid: process.pid, hostname: hostname() });
    await rm(join(dir, 'run.lock'));

    await writeFile(join(dir, 'run.lock'), JSON.stringify({ pid: 4242, hostname: 'elsewhere.example' }));
    await expect(restoreRun(dir)).rejects.toThrow(
      `is locked by pid 4242 on elsewhere.example, not this machine: netbench cannot tell whether it still runs. If it does not, delete ${join(dir, 'run.lock')}`,
    );
    expect(JSON.parse(await readFile(join(dir, 'run.lock'), 'utf8'))).toMatchObject({ hostname: 'elsewhere.example' }); // left as it was
  });
});
