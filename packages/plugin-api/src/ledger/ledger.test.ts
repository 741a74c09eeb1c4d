import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LedgerFile } from './ledger-file.js';
import { pendingResources } from './pending-resources.js';
import { readLedger } from './read-ledger.js';
import type { LedgerEntry, LedgerPhase } from './types.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nbt-ledger-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const line = (seq: number, phase: LedgerPhase, id: string, plugin = 'p'): LedgerEntry => ({
  seq,
  time: '2026-01-01T00:00:00.000Z',
  runId: 'r',
  plugin,
  phase,
  resource: { type: 't', id },
});

describe('pendingResources', () => {
  it('lists resources not yet deleted, newest first, each as its latest line', () => {
    const entries = [
      line(1, 'intent', 'net'),
      line(2, 'created', 'net'),
      line(3, 'intent', 'vm1'),
      line(4, 'created', 'vm1'),
      line(5, 'intent', 'vm2'),
      line(6, 'failed', 'vm2'),
      line(7, 'created', 'proc'),
      line(8, 'deleted', 'proc'),
      line(9, 'delete-failed', 'vm1'),
      line(10, 'intent', 'x', 'other'),
      line(11, 'deleted', 'x', 'other'),
    ];
    expect(pendingResources(entries).map((e) => `${e.resource.id}:${e.phase}`)).toEqual(['vm2:failed', 'vm1:created', 'net:created']);
  });

  it('keeps a resource of the same id per plugin apart', () => {
    expect(pendingResources([line(1, 'intent', 'a', 'p'), line(2, 'intent', 'a', 'q'), line(3, 'deleted', 'a', 'p')]).map((e) => e.plugin)).toEqual(['q']);
  });
});

describe('LedgerFile', () => {
  it('writes intent before creating, records failures, and continues the sequence when reopened', async () => {
    const file = join(dir, 'ledger.jsonl');
    const ledger = await LedgerFile.open(file, 'run1');
    const view = ledger.forPlugin('lab');
    const seenDuringCreate = await view.track({ type: 'dir', id: 'd1' }, async () => (await readFile(file, 'utf8')).includes('"intent"'));
    expect(seenDuringCreate).toBe(true);
    await expect(
      view.track({ type: 'dir', id: 'd2' }, async () => {
        throw new Error('no space');
      }),
    ).rejects.toThrow('no space');
    await view.created({ type: 'process', id: '42' });
    await ledger.forPlugin('other').created({ type: 'x', id: 'y' });
    expect(view.entries.map((e) => e.phase)).toEqual(['intent', 'created', 'intent', 'failed', 'created']);
    await ledger.close();

    const reopened = await LedgerFile.open(file, 'run1');
    await reopened.append('lab', 'deleted', { type: 'process', id: '42' });
    await reopened.close();
    const entries = await readLedger(file);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(entries[3]).toMatchObject({ phase: 'failed', error: 'no space', plugin: 'lab', runId: 'run1' });
    expect(pendingResources(entries).map((e) => e.resource.id)).toEqual(['y', 'd2', 'd1']);
  });

  it('keeps file order equal to sequence order under parallel appends', async () => {
    const file = join(dir, 'ledger.jsonl');
    const ledger = await LedgerFile.open(file, 'r');
    await Promise.all(Array.from({ length: 20 }, (_, i) => ledger.forPlugin(`c${i % 3}`).created({ type: 't', id: String(i) })));
    await ledger.close();
    expect((await readLedger(file)).map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});

describe('readLedger', () => {
  it('reads a missing file as empty and skips a torn last line', async () => {
    const file = join(dir, 'ledger.jsonl');
    expect(await readLedger(file)).toEqual([]);
    await appendFile(file, `${JSON.stringify(line(1, 'intent', 'a'))}\n{"seq":2,"ti`);
    expect((await readLedger(file)).map((e) => e.seq)).toEqual([1]);
  });
});
