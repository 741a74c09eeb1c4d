import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnyPlugin } from '@netbench/plugin-api';
import { readLedger } from '@netbench/plugin-api';
import { staticRegistry } from '../../registry/static-registry.js';
import { runPlan } from '../run-plan.js';
import { EXIT_CODES } from '../exit-codes.js';
import labCloud from '../__fixtures__/lab-cloud.js';
import labTool from '../__fixtures__/lab-tool.js';
import { labPlan } from '../__fixtures__/lab-plan.js';
import { sweep } from '../__fixtures__/lab-leftovers.js';

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
    await expect(runPlan(plan(), { registry, runsDir, runId: '20261125-050000-cccccc', stages: { from: 'execute', to: 'execute' } })).rejects.toThrow(/a new run starts with provision/);
    expect(existsSync(join(runsDir, '20261125-050000-cccccc'))).toBe(false);
    // SIGINT tears down (as ever): such a run is finished, not resumable; only a killed process leaves one to resume.
    const stop = new AbortController();
    stop.abort();
    await runPlan(plan(), { registry, runsDir, runId: '20261125-050000-dddddd', signal: stop.signal });
    await expect(runPlan(plan(), { registry, runsDir, runId: '20261125-050000-dddddd', resume: true })).rejects.toThrow(/is finished/);
  });
});
