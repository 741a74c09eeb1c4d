import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyPlugin, NetbenchEvent } from '@netbench/plugin-api';
import { readLedger } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staticRegistry } from '../registry/static-registry.js';
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
  root = await mkdtemp(join(tmpdir(), 'nbt-teardown-'));
  runsDir = join(root, 'runs');
  // Runs are stored: into the test's folder, never the user's ~/.netbench.
  process.env['NETBENCH_DB'] = join(root, 'netbench.db');
});
afterEach(async () => {
  await sweep(runsDir);
  await rm(root, { recursive: true, force: true });
});

const registry = staticRegistry([labCloud, labTool] as AnyPlugin[]);

async function run(options: Omit<LabPlanOptions, 'root' | 'runsDir'>, control: { signal?: AbortSignal; onEvent?: (e: NetbenchEvent) => void } = {}) {
  const events: NetbenchEvent[] = [];
  const began = Date.now();
  const outcome = await runPlan(labPlan({ root, runsDir, ...options }), {
    registry,
    abortGraceMs: 300,
    ...(control.signal ? { signal: control.signal } : {}),
    onEvent: (e) => {
      events.push(e);
      control.onEvent?.(e);
    },
  });
  const runDir = outcome.record.runDir;
  const results = JSON.parse(await readFile(join(runDir, 'results.json'), 'utf8')) as RunResults;
  return { outcome, events, runDir, results, seconds: (Date.now() - began) / 1000 };
}

describe('teardown', () => {
  it('deletes what was made when provisioning fails half-way, including the resource whose creation failed', async () => {
    const { outcome, runDir, results } = await run({ trials: [{ mode: 'ok' }], b: { failProvision: true } });
    expect(outcome.exitCode).toBe(EXIT_CODES.provisionFailed);
    expect(results.run.status).toBe('failed');
    expect(results.run.errors).toEqual(['[plugin lab] provision: lab cannot make host b']);
    expect(results.run.trials[0]!.status).toBe('skipped');
    expect(results.run.phases.map((p) => [p.phase, p.ok])).toEqual([
      ['provision', false],
      ['teardown', true],
      ['publish', true],
    ]);
    const ledger = await readLedger(join(runDir, 'ledger.jsonl'));
    // a: folder + process; b: folder whose creation failed after mkdir (it exists on disk).
    expect(ledger.map((e) => `${e.resource.host}:${e.resource.type}:${e.phase}`)).toEqual([
      'a:dir:intent',
      'a:dir:created',
      'a:process:created',
      'b:dir:intent',
      'b:dir:failed',
      'b:dir:deleted',
      'a:process:deleted',
      'a:dir:deleted',
    ]);
    const resources = await labResources(runDir);
    expect(resources).toHaveLength(3);
    for (const resource of resources) expect(exists(resource)).toBe(false);
  });

  it('attempts every delete and collects the failures', async () => {
    const { outcome, runDir, results, events } = await run({ trials: [{ mode: 'ok' }], a: { failTeardown: true } });
    expect(outcome.exitCode).toBe(EXIT_CODES.teardownFailed);
    expect(results.run.status).toBe('failed');
    const aDir = join(root, `${outcome.record.runId}-a`);
    expect(results.run.errors).toEqual([`could not delete dir ${aDir} (host a): [plugin lab] teardown: lab refuses to delete ${aDir}`]);
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', teardownErrors: 1 });
    const ledger = await readLedger(join(runDir, 'ledger.jsonl'));
    expect(ledger.filter((e) => e.phase === 'delete-failed').map((e) => e.resource.id)).toEqual([aDir]);
    expect(ledger.filter((e) => e.phase === 'deleted')).toHaveLength(3);
    // Everything except the refused folder is gone; the samples were still measured.
    for (const resource of await labResources(runDir)) expect(exists(resource)).toBe(resource.id === aDir);
    expect(results.samples.some((s) => s.metric === 'echo_time')).toBe(true);
  });

  it('stops at an interrupt mid-execute: keeps samples so far, tears down, publishes, exits 130', async () => {
    const controller = new AbortController();
    const { outcome, runDir, results, seconds } = await run(
      { trials: [{ mode: 'ok' }, { mode: 'sleep', seconds: 30 }, { mode: 'ok' }] },
      {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'trial-started' && e.trial === 't0002') setTimeout(() => controller.abort(new Error('interrupted by SIGINT')), 200);
        },
      },
    );
    expect(seconds).toBeLessThan(10);
    expect(outcome.exitCode).toBe(EXIT_CODES.interrupted);
    expect(results.run.status).toBe('interrupted');
    expect(results.run.trials.map((t) => t.status)).toEqual(['succeeded', 'failed', 'skipped']);
    expect(results.run.trials[1]!.error).toContain('interrupted by SIGINT');
    expect(results.samples.filter((s) => s.trialId).map((s) => s.trialId)).toEqual(['t0001', 't0001']);
    expect(results.run.phases.map((p) => p.phase)).toEqual(['provision', 'prepare', 'execute', 'teardown', 'publish']);
    for (const resource of await labResources(runDir)) expect(exists(resource)).toBe(false);
  });

  it('does not wait forever for a trial that ignores its interrupt', async () => {
    const controller = new AbortController();
    const { outcome, runDir, seconds } = await run(
      { trials: [{ mode: 'ignore-signal' }] },
      {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'trial-started') setTimeout(() => controller.abort(), 100);
        },
      },
    );
    expect(seconds).toBeLessThan(4);
    expect(outcome.exitCode).toBe(EXIT_CODES.interrupted);
    for (const resource of await labResources(runDir)) expect(exists(resource)).toBe(false);
  });

  it('kills a hanging trial at its timeout and goes on with the next', async () => {
    const { outcome, results, seconds } = await run({ trials: [{ mode: 'hang' }, { mode: 'ignore-signal' }, { mode: 'ok' }], options: { trialTimeout: 1, retries: 0 } });
    expect(outcome.exitCode).toBe(EXIT_CODES.trialsFailed);
    expect(results.run.trials.map((t) => t.status)).toEqual(['failed', 'failed', 'succeeded']);
    expect(results.run.trials[0]!.error).toBe('[plugin lab-echo] run: did not finish within 1 s');
    expect(results.run.trials[1]!.error).toBe('[plugin lab-echo] run: did not finish within 1 s');
    // 1 s timeout each, plus at most the grace period for the one ignoring its signal.
    expect(seconds).toBeLessThan(5);
    expect(existsSync(join(outcome.record.runDir, 'raw', 't0001-echo.txt'))).toBe(true);
  });

  it('tears down and marks the run interrupted when interrupted before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    const { outcome, results } = await run({ trials: [{ mode: 'ok' }] }, { signal: controller.signal });
    expect(outcome.exitCode).toBe(EXIT_CODES.interrupted);
    expect(results.run.trials[0]!.status).toBe('skipped');
    expect(results.run.phases.map((p) => p.phase)).toEqual(['teardown', 'publish']);
  });
});
