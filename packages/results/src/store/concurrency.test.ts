import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';

function ingestIn(db: string, worker: number, count: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [new URL('./__fixtures__/ingest-many.mjs', import.meta.url).pathname, db, String(worker), String(count)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe('concurrent writers', () => {
  it('four processes creating and filling one new store at once lose nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nbt-store-concurrent-'));
    try {
      const db = join(dir, 'netbench.db');
      const results = await Promise.all([1, 2, 3, 4].map((w) => ingestIn(db, w, 15)));
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      const raw = new DatabaseSync(db);
      expect(raw.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 60 });
      expect(raw.prepare('SELECT count(*) AS n FROM samples').get()).toEqual({ n: 60 * 55 });
      expect(raw.prepare('SELECT count(DISTINCT run_pk) AS n FROM samples').get()).toEqual({ n: 60 });
      expect(raw.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      raw.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
