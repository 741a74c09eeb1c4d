import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { StoredRunSummary } from '@netbench/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { readResults } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/results/ping.yaml');
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

// Each bad store: a clear message, exit 1, and the file exactly as it was.
describe('a results store that cannot be used', () => {
  const home = tempHome('netbench-e2e-badstore-');
  const env = { NETBENCH_HOME: home };
  const cli = (...args: string[]) => runCli(args, { env });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('refuses a SQLite database of another program', async () => {
    const db = join(home, 'app.db');
    const raw = new DatabaseSync(db);
    raw.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');");
    raw.close();
    const before = sha(db);
    const result = await cli('results', 'list', '--db', db);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/app\.db is a SQLite database but not a netbench results store .*nothing was changed/);
    expect(sha(db)).toBe(before);
  });

  it('refuses a file that is not SQLite at all', async () => {
    const db = join(home, 'notes.txt');
    writeFileSync(db, 'not a database\n'.repeat(300));
    const before = sha(db);
    const result = await cli('results', 'show', 'latest', '--db', db);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/notes\.txt is not a SQLite database, so not a netbench results store; nothing was changed/);
    expect(sha(db)).toBe(before);
  });

  it('refuses a store written by a newer netbench, changing nothing', async () => {
    const db = join(home, 'newer.db');
    const run = await runCli(['run', spec, '--runs-dir', join(home, 'runs-newer'), '--db', db, '--progress', 'none'], { env });
    expect(run.code, run.stderr).toBe(0);
    const raw = new DatabaseSync(db);
    raw.exec('PRAGMA user_version = 7; PRAGMA wal_checkpoint(TRUNCATE);');
    raw.close();
    const before = sha(db);
    for (const args of [
      ['results', 'list'],
      ['compare', 'latest', 'latest'],
    ]) {
      const result = await cli(...args, '--db', db);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/was written by a newer netbench \(store schema v7; this netbench knows up to v2\); nothing was changed/);
    }
    expect(sha(db)).toBe(before);
  });

  it('a run whose store is unusable keeps results.json and its publishers, and exits 8 (a failed publisher)', async () => {
    const db = join(home, 'app.db');
    const before = sha(db);
    const runs = join(home, 'runs-foreign');
    const result = await runCli(['run', spec, '--runs-dir', runs, '--db', db, '--progress', 'plain'], { env });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/not a netbench results store/);
    const results = readResults(join(runs, readdirSync(runs)[0]!));
    expect(results.run.status).toBe('succeeded');
    expect(results.samples.length).toBeGreaterThan(20);
    expect(results.run.errors.join('\n')).toMatch(/not a netbench results store/);
    expect(existsSync(join(results.run.runDir, 'results.pkb.jsonl'))).toBe(true);
    expect(sha(db)).toBe(before);
  });
});

// A store on a 2 MB tmpfs: a run that finds the disk full is not stored, the runs before it are intact.
describe('a full disk', () => {
  const home = tempHome('netbench-e2e-full-');
  const mount = join(home, 'small');
  const db = join(mount, 'netbench.db');
  const filler = join(mount, 'filler');
  const env = { NETBENCH_HOME: home };
  let mounted = false;

  beforeAll(() => {
    mkdirSync(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0755', 'tmpfs', mount]);
    mounted = true;
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', [mount]);
    rmSync(home, { recursive: true, force: true });
  });

  it('rolls back the run that does not fit, says the disk is full, and loses nothing', async () => {
    const runsDir = join(home, 'runs');
    const run = () => runCli(['run', spec, '--runs-dir', runsDir, '--db', db, '--progress', 'plain'], { env });
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const firstId = readdirSync(runsDir)[0]!;

    // Leave 48 KiB: enough to open the store (its WAL index), not to store a run.
    const free = statfsSync(mount);
    writeFileSync(filler, Buffer.alloc(Number(free.bavail * free.bsize) - 48 * 1024));
    const second = await run();
    // results.json is written (its disk has room); the store could not take the run: a failed publisher.
    expect(second.code).toBe(8);
    expect(second.stderr).toMatch(/the disk holding .*netbench\.db is full/);
    const secondId = readdirSync(runsDir).find((id) => id !== firstId)!;
    const secondResults = readResults(join(runsDir, secondId));
    expect(secondResults.samples.length).toBeGreaterThan(20);
    expect(secondResults.run.errors.join('\n')).toMatch(/storing run .* the disk holding .* is full .*rolled back, what was stored before is intact/);

    rmSync(filler);
    const list = await runCli(['results', 'list', '--db', db, '--json'], { env });
    expect((JSON.parse(list.stdout) as { runs: StoredRunSummary[] }).runs.map((r) => r.runId)).toEqual([firstId]);
    const exported = await runCli(['results', 'export', firstId, '--db', db], { env });
    expect(JSON.parse(exported.stdout)).toEqual([readResults(join(runsDir, firstId))]);
    const raw = new DatabaseSync(db);
    expect(raw.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    raw.close();

    // With room again, the run that missed the store is added from its folder.
    const added = await runCli(['results', 'add', join(runsDir, secondId), '--db', db], { env });
    expect(added.code, added.stderr).toBe(0);
    const exportedSecond = await runCli(['results', 'export', secondId, '--db', db], { env });
    expect(JSON.parse(exportedSecond.stdout)).toEqual([secondResults]);
  });
});
