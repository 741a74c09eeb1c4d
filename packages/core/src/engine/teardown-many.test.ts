import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyPlugin, type CloudPlugin, definePlugin, type EventInput, LedgerFile, type LedgerResource, readLedger, z } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staticRegistry } from '../registry/static-registry.js';
import { deleteResources } from './teardown.js';

// What the engine hands a cloud's `teardownMany`, and what it records from the answer.

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'nbt-teardown-many-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

type Call = { hook: 'teardown' | 'teardownMany'; ids: string[] };

function cloud(name: string, calls: Call[], many?: (resources: readonly LedgerResource[]) => Promise<readonly (Error | undefined)[]>): CloudPlugin<unknown> {
  return definePlugin({
    kind: 'cloud',
    name,
    version: '0.0.1',
    hostSchema: z.strictObject({}),
    async provision() {
      return [];
    },
    async teardown(resource: LedgerResource) {
      calls.push({ hook: 'teardown', ids: [resource.id] });
      if (resource.id.startsWith('bad')) throw new Error(`cannot delete ${resource.id}`);
    },
    ...(many
      ? {
          async teardownMany(resources: readonly LedgerResource[]) {
            calls.push({ hook: 'teardownMany', ids: resources.map((r) => r.id) });
            return many(resources);
          },
        }
      : {}),
  }) as CloudPlugin<unknown>;
}

/** A ledger where each `plugin:id` was created, in the order given. */
async function ledgerOf(entries: string[]): Promise<LedgerFile> {
  const ledger = await LedgerFile.open(join(root, 'ledger.jsonl'), 'run-1');
  for (const entry of entries) {
    const [plugin, id] = entry.split(':') as [string, string];
    await ledger.append(plugin, 'intent', { type: 'thing', id });
    await ledger.append(plugin, 'created', { type: 'thing', id });
  }
  return ledger;
}

async function remove(ledger: LedgerFile, plugins: CloudPlugin<unknown>[], events: EventInput[] = []) {
  return deleteResources(ledger, {
    registry: staticRegistry(plugins as AnyPlugin[]),
    runId: 'run-1',
    runDir: root,
    timeoutMs: 5_000,
    graceMs: 100,
    emit: (event) => events.push(event),
    log: () => ({ debug() {}, info() {}, warn() {} }),
  });
}

const outcome = async (ledger: LedgerFile) =>
  (await readLedger(ledger.file)).filter((e) => e.phase === 'deleted' || e.phase === 'delete-failed').map((e) => `${e.resource.id}:${e.phase}`);

describe('deleteResources with teardownMany', () => {
  it("hands each run of a plugin's consecutive entries to one call, newest first, and one entry alone to teardown", async () => {
    const calls: Call[] = [];
    const ledger = await ledgerOf(['a:a1', 'a:a2', 'b:b1', 'a:a3', 'a:a4', 'a:a5']);
    const result = await remove(ledger, [cloud('a', calls, async (r) => r.map(() => undefined)), cloud('b', calls)]);
    expect(calls).toEqual([
      { hook: 'teardownMany', ids: ['a5', 'a4', 'a3'] },
      { hook: 'teardown', ids: ['b1'] },
      { hook: 'teardownMany', ids: ['a2', 'a1'] },
    ]);
    expect(result.failed).toEqual([]);
    expect(result.deleted.map((e) => e.resource.id)).toEqual(['a5', 'a4', 'a3', 'b1', 'a2', 'a1']);
    expect(await outcome(ledger)).toEqual(['a5:deleted', 'a4:deleted', 'a3:deleted', 'b1:deleted', 'a2:deleted', 'a1:deleted']);
    await ledger.close();
  });

  it("records each resource's own outcome from the answer", async () => {
    const calls: Call[] = [];
    const ledger = await ledgerOf(['a:a1', 'a:a2', 'a:a3']);
    const result = await remove(ledger, [cloud('a', calls, async (r) => r.map((x) => (x.id === 'a2' ? new Error('a2 is held') : undefined)))]);
    expect(calls).toEqual([{ hook: 'teardownMany', ids: ['a3', 'a2', 'a1'] }]);
    expect(result.failed).toEqual([{ plugin: 'a', resource: { type: 'thing', id: 'a2' }, error: 'a2 is held' }]);
    expect(await outcome(ledger)).toEqual(['a3:deleted', 'a2:delete-failed', 'a1:deleted']);
    // A later pass (cleanup) is offered only what is still pending.
    const again: Call[] = [];
    await remove(ledger, [cloud('a', again, async (r) => r.map(() => undefined))]);
    expect(again).toEqual([{ hook: 'teardown', ids: ['a2'] }]);
    await ledger.close();
  });

  it('falls back to teardown, one by one, when the call throws or answers the wrong number of outcomes', async () => {
    for (const many of [
      async () => {
        throw new Error('batch broke');
      },
      async () => [undefined],
    ]) {
      const calls: Call[] = [];
      const events: EventInput[] = [];
      const ledger = await ledgerOf(['a:a1', 'a:bad2', 'a:a3']);
      const result = await remove(ledger, [cloud('a', calls, many)], events);
      expect(calls).toEqual([
        { hook: 'teardownMany', ids: ['a3', 'bad2', 'a1'] },
        { hook: 'teardown', ids: ['a3'] },
        { hook: 'teardown', ids: ['bad2'] },
        { hook: 'teardown', ids: ['a1'] },
      ]);
      expect(result.failed.map((f) => f.error)).toEqual(['[plugin a] teardown: cannot delete bad2']);
      expect(
        events
          .filter((e) => e.type === 'warning')
          .map((e) => (e as { message: string }).message)
          .join('\n'),
      ).toMatch(/one by one/);
      await ledger.close();
      await rm(ledger.file);
    }
  });

  it('times the whole call out once, then deletes one by one', async () => {
    const calls: Call[] = [];
    const ledger = await ledgerOf(['a:a1', 'a:a2']);
    const never = () => new Promise<readonly (Error | undefined)[]>(() => {});
    const result = await deleteResources(ledger, {
      registry: staticRegistry([cloud('a', calls, never)] as AnyPlugin[]),
      runId: 'run-1',
      runDir: root,
      timeoutMs: 200,
      graceMs: 50,
      log: () => ({ debug() {}, info() {}, warn() {} }),
    });
    expect(calls.map((c) => c.hook)).toEqual(['teardownMany', 'teardown', 'teardown']);
    expect(result.deleted.map((e) => e.resource.id)).toEqual(['a2', 'a1']);
    await ledger.close();
  });

  it('leaves dry runs and filters as they were: nothing called, only the chosen entries', async () => {
    const calls: Call[] = [];
    const ledger = await ledgerOf(['a:a1', 'b:b1', 'a:a2']);
    const options = {
      registry: staticRegistry([cloud('a', calls, async (r: readonly LedgerResource[]) => r.map(() => undefined)), cloud('b', calls)] as AnyPlugin[]),
      runId: 'run-1',
      runDir: root,
      timeoutMs: 5_000,
      log: () => ({ debug() {}, info() {}, warn() {} }),
    };
    const dry = await deleteResources(ledger, { ...options, dryRun: true });
    expect(dry.deleted.map((e) => e.resource.id)).toEqual(['a2', 'b1', 'a1']);
    expect(calls).toEqual([]);
    // With b filtered out, a's two entries are consecutive among what is deleted.
    await deleteResources(ledger, { ...options, only: (e) => e.plugin === 'a' });
    expect(calls).toEqual([{ hook: 'teardownMany', ids: ['a2', 'a1'] }]);
    await ledger.close();
  });
});
