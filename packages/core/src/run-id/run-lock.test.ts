import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireRunLock } from './run-lock.js';

// Several processes racing for one lock: they import the built module (`npx tsc -b packages/core` first).
const built = fileURLToPath(new URL('../../dist/run-id/run-lock.js', import.meta.url));
const contender = `
  const { acquireRunLock } = await import(${JSON.stringify(built)});
  await new Promise((r) => setTimeout(r, Number(process.env.START_AT) - Date.now()));
  try { await acquireRunLock(process.argv[1]); console.log('locked'); process.stdin.resume(); await new Promise((r) => process.stdin.on('end', r)); }
  catch (error) { console.log('refused: ' + error.message); }
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nbt-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('acquireRunLock', () => {
  it('of six processes started at the same instant, exactly one holds the lock; the rest are told who does', async () => {
    // A dead process's lock is there too: every contender tries to take it over at once.
    const dead = spawn('true');
    await new Promise((done) => dead.on('exit', done));
    await writeFile(join(dir, 'run.lock'), JSON.stringify({ pid: dead.pid, hostname: hostname() }));
    // The winner holds the lock until every contender has answered (its standard input then ends), so one slowed by a loaded machine still meets it held.
    const startAt = String(Date.now() + 3000);
    const contenders = Array.from({ length: 6 }, () =>
      spawn(process.execPath, ['--input-type=module', '-e', contender, dir], { env: { ...process.env, START_AT: startAt }, stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    const answers = contenders.map(
      (child) =>
        new Promise<string>((resolve) => {
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            if (out.includes('\n')) resolve(out);
          });
          child.on('exit', () => resolve(out));
        }),
    );
    const outs = (await Promise.all(answers)).map((stdout) => ({ stdout }));
    for (const child of contenders) child.stdin.end();
    await Promise.all(contenders.map((child) => (child.exitCode === null ? new Promise((done) => child.on('exit', done)) : undefined)));
    const lines = outs.map((o) => o.stdout.trim());
    expect(lines.filter((l) => l === 'locked')).toHaveLength(1);
    for (const line of lines.filter((l) => l !== 'locked')) expect(line).toMatch(/^refused: run .* is still running \(pid \d+\)/);
    // Nothing of the race is left but the winner's lock (its process has exited since).
    expect((await readdir(dir)).sort()).toEqual(['run.lock']);
  }, 60_000);

  it('without bestEffort refuses to go on when the lock cannot be written; with it, says so by resolving false', async () => {
    const gone = join(dir, 'no-such-folder');
    await expect(acquireRunLock(gone)).rejects.toThrow(`cannot lock run ${gone}`);
    await expect(acquireRunLock(gone, { bestEffort: true })).resolves.toBe(false);
    expect(await acquireRunLock(dir)).toBe(true);
    expect(JSON.parse(await readFile(join(dir, 'run.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
  });
});
