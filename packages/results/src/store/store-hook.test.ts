import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_CODES, type PublisherSpec, runPlan, staticRegistry } from '@netbench/core';
import type { NetbenchEvent } from '@netbench/plugin-api';
import { type AnyPlugin, definePlugin, type RunResults, z } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// The engine's own test plugins (a lab cloud and tool on loopback).
import labCloud from '../../../core/src/engine/__fixtures__/lab-cloud.js';
import { sweep } from '../../../core/src/engine/__fixtures__/lab-leftovers.js';
import { labPlan } from '../../../core/src/engine/__fixtures__/lab-plan.js';
import labTool from '../../../core/src/engine/__fixtures__/lab-tool.js';
import { openStore } from './open-store.js';
import { runStore } from './run-store.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'nbt-store-hook-'));
});
afterEach(async () => {
  await sweep(join(root, 'runs'));
  await rm(root, { recursive: true, force: true });
});

const keep = definePlugin({
  kind: 'publisher',
  name: 'keep',
  schema: z.strictObject({ file: z.string() }),
  async publish(_run, samples, settings: { file: string }) {
    await writeFile(settings.file, String(samples.length));
    return { count: samples.length };
  },
});
const boom = definePlugin({
  kind: 'publisher',
  name: 'boom',
  schema: z.strictObject({}),
  async publish() {
    throw new Error('backend down');
  },
});
const registry = staticRegistry([labCloud, labTool, keep, boom] as AnyPlugin[]);

async function run(db: string | false, publish: readonly PublisherSpec[] = [{ type: 'keep', file: join(root, 'kept.txt') }]) {
  const events: NetbenchEvent[] = [];
  const outcome = await runPlan(labPlan({ root, runsDir: join(root, 'runs'), trials: [{ mode: 'ok' }, { mode: 'ok' }], publish }), {
    registry,
    ...(db === false ? {} : { store: runStore(db) }),
    onEvent: (e) => events.push(e),
  });
  const results = JSON.parse(await readFile(join(outcome.record.runDir, 'results.json'), 'utf8')) as RunResults;
  return { outcome, events, results };
}

describe('the engine stores every run', () => {
  it('ingests the run before the publishers and keeps the final record, exactly as results.json', async () => {
    const db = join(root, 'store', 'netbench.db');
    const { outcome, events, results } = await run(db, [{ type: 'keep', file: join(root, 'kept.txt') }, { type: 'boom' }]);
    expect(outcome.exitCode).toBe(EXIT_CODES.publishFailed);
    const published = events.filter((e) => e.type === 'published').map((e) => e.type === 'published' && e.publisher);
    expect(published).toEqual(['store', 'keep']);
    const store = await openStore(db, { create: false });
    try {
      const stored = store.load(store.resolve(outcome.record.runId));
      // The publish phase and the failed publisher are in the stored record too.
      expect(stored).toEqual(results);
      expect(stored.run.errors.join()).toMatch(/backend down/);
    } finally {
      store.close();
    }
  });

  it('reports a store failure like a failed publisher: error event, exit 8, results.json and publishers kept', async () => {
    const foreign = join(root, 'foreign.db');
    await writeFile(foreign, 'this is not a database, it is a note to self\n'.repeat(200));
    const before = await readFile(foreign);
    const { outcome, events, results } = await run(foreign);
    expect(outcome.exitCode).toBe(EXIT_CODES.publishFailed);
    const error = events.find((e) => e.type === 'error');
    expect(error).toMatchObject({ plugin: 'store', phase: 'publish', message: expect.stringMatching(/foreign\.db is not a SQLite database.*nothing was changed/) });
    expect(results.samples.length).toBeGreaterThan(0);
    expect(await readFile(join(root, 'kept.txt'), 'utf8')).toBe(String(results.samples.length));
    expect(await readFile(foreign)).toEqual(before);
  });

  it('stores nothing without a store', async () => {
    const { outcome, events } = await run(false);
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    expect(events.some((e) => e.type === 'published' && e.publisher === 'store')).toBe(false);
    expect(existsSync(join(root, 'netbench.db'))).toBe(false);
  });
});
