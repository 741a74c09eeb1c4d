import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { LedgerResource } from '../ledger/types.js';
import type { CleanupFilter } from '../plugin/cloud.js';
import { teardownEach } from './teardown-each.js';

const found: LedgerResource[] = [
  { type: 'instance', id: 'i-1', data: { runId: 'r1' } },
  { type: 'firewall', id: 'fw-1' },
  { type: 'subnet', id: 'sn-1' },
  { type: 'network', id: 'net-1' },
];

describe('teardownEach', () => {
  it('deletes every resource one at a time, in the order given', async () => {
    const events: string[] = [];
    const report = await teardownEach(
      found,
      async (r) => {
        events.push(`start ${r.id}`);
        await sleep(r.id === 'i-1' ? 20 : 1); // the slow first delete must finish before the next starts
        events.push(`done ${r.id}`);
      },
      {},
    );
    expect(events).toEqual(['start i-1', 'done i-1', 'start fw-1', 'done fw-1', 'start sn-1', 'done sn-1', 'start net-1', 'done net-1']);
    expect(report.found).toEqual(found);
    expect(report.failed).toEqual([]);
  });

  it('keeps going past failures and reports each with its message, in order', async () => {
    const deleted: string[] = [];
    const report = await teardownEach(
      found,
      async (r) => {
        if (r.id === 'fw-1') throw new Error('firewall fw-1 is in use');
        if (r.id === 'net-1') throw 'network busy'; // a non-Error reason becomes its string
        deleted.push(r.id);
      },
      { dryRun: false },
    );
    expect(deleted).toEqual(['i-1', 'sn-1']);
    expect(report.failed).toEqual([
      { resource: found[1], error: 'firewall fw-1 is in use' },
      { resource: found[3], error: 'network busy' },
    ]);
    expect(report.found).toEqual(found);
  });

  it('deletes nothing on a dry run and still reports what it found', async () => {
    const deleted: string[] = [];
    const report = await teardownEach(
      found,
      async (r) => {
        deleted.push(r.id);
      },
      { dryRun: true },
    );
    expect(deleted).toEqual([]);
    expect(report).toEqual({ found, failed: [] });
  });

  it('takes a cleanup filter as its options', async () => {
    const deleted: string[] = [];
    const filter: CleanupFilter = { runId: 'r1', olderThanMs: 0 };
    const report = await teardownEach(
      found.slice(0, 1),
      async (r) => {
        deleted.push(r.id);
      },
      filter,
    );
    expect(deleted).toEqual(['i-1']);
    expect(report.failed).toEqual([]);
  });
});
