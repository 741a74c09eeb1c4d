import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPlan, staticRegistry } from '@netbench/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveRun, quickstartRun } from './__fixtures__/derive-run.js';
import { compareResults } from './compare-results.js';
import { exportResults } from './export-results.js';
import { listResults } from './list-results.js';
import { showResult } from './show-result.js';
import { withStore } from './with-store.js';

// A read-only $NETBENCH_HOME: a read-only bind mount when root (root may write anything else), else a folder without write permission.
const root = mkdtempSync(join(tmpdir(), 'nbt-ro-'));
const home = join(root, 'home');
const view = join(root, 'view');
const real = quickstartRun();
const a = deriveRun(real, { runId: '20261101-080000-aaaaaa', startedAt: '2026-11-01T08:00:00.000Z' });
const b = deriveRun(real, { runId: '20261102-080000-bbbbbb', startedAt: '2026-11-02T08:00:00.000Z' });
let mounted = false;

beforeAll(async () => {
  mkdirSync(home);
  mkdirSync(view);
  await withStore(join(home, 'netbench.db'), (store) => {
    store.ingest(a);
    store.ingest(b);
  });
  if (process.getuid?.() === 0) {
    execFileSync('mount', ['--bind', home, view]);
    mounted = true;
    execFileSync('mount', ['-o', 'remount,ro,bind', view]);
  } else {
    rmSync(view, { recursive: true });
    execFileSync('cp', ['-a', home, view]);
    execFileSync('chmod', ['a-w', view, join(view, 'netbench.db')]);
  }
});
afterAll(() => {
  if (mounted) execFileSync('umount', [view]);
  else execFileSync('chmod', ['-R', 'u+w', view]);
  rmSync(root, { recursive: true, force: true });
});

describe('a read-only store', () => {
  it('list, show, export and compare read it', async () => {
    const db = join(view, 'netbench.db');
    expect((await listResults({ db })).runs.map((r) => r.runId).sort()).toEqual([a.run.runId, b.run.runId]);
    expect((await showResult({ db, run: a.run.runId })).run.runId).toBe(a.run.runId);
    expect((await exportResults({ db, runs: [b.run.runId] }))[0]?.samples).toHaveLength(b.samples.length);
    const comparison = await compareResults({ db, baseline: { runs: [a.run.runId] }, candidate: { runs: [b.run.runId] } });
    expect(comparison.rows.length).toBeGreaterThan(0);
  });

  it('a run under a read-only home fails with a clear error, before anything is created', async () => {
    const error = await runPlan({ spec: { name: 'ro', hosts: {}, benchmarks: [], publish: [], options: {} }, trials: [], fleet: [] } as never, {
      registry: staticRegistry([]),
      runsDir: join(view, 'runs'),
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `cannot create the runs folder ${join(view, 'runs')}: ${mounted ? 'the file system is read-only' : 'permission denied'}; point NETBENCH_HOME (or --runs-dir / --db) at a writable folder`,
    );
  });
});

describe('owner-only files', () => {
  it('a new store, its folder, run folders and their files are 0700/0600 whatever the umask', async () => {
    const previous = process.umask(0o022);
    try {
      const fresh = join(root, 'fresh', 'home');
      await withStore(join(fresh, 'netbench.db'), (store) => store.ingest(a));
      expect(statSync(fresh).mode & 0o777).toBe(0o700);
      expect(statSync(join(fresh, 'netbench.db')).mode & 0o777).toBe(0o600);
      const runs = join(fresh, 'runs');
      const outcome = await runPlan(
        {
          spec: { name: 'modes', hosts: {}, benchmarks: [], publish: [], options: {}, source: { file: 'x.yaml', text: 'name: modes\n' } },
          trials: [],
          fleet: [],
          cells: 1,
          estimatedSeconds: 0,
        } as never,
        {
          registry: staticRegistry([]),
          runsDir: runs,
        },
      );
      const runDir = join(runs, outcome.record.runId);
      expect(statSync(runs).mode & 0o777).toBe(0o700);
      expect(statSync(runDir).mode & 0o777).toBe(0o700);
      for (const file of ['spec.yaml', 'events.jsonl', 'ledger.jsonl', 'samples.jsonl', 'results.json']) {
        expect([file, statSync(join(runDir, file)).mode & 0o777]).toEqual([file, 0o600]);
      }
    } finally {
      process.umask(previous);
    }
  });
});
