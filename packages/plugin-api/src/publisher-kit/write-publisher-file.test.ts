import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writePublisherFile } from './write-publisher-file.js';

describe('writePublisherFile', () => {
  let base: string;
  let runDir: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'nbt-publisher-file-'));
    runDir = join(base, 'run');
    mkdirSync(runDir, { mode: 0o700 });
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('writes in the run folder: the default name, a relative path (folders 0700), the file 0600 whatever the umask', async () => {
    const umask = process.umask(0);
    try {
      expect(await writePublisherFile(runDir, undefined, 'results.csv', 'a\n', 'csv publisher')).toBe(join(runDir, 'results.csv'));
      expect(await writePublisherFile(runDir, 'out/deep/r.csv', 'results.csv', 'b\n', 'csv publisher')).toBe(join(runDir, 'out/deep/r.csv'));
    } finally {
      process.umask(umask);
    }
    expect(statSync(join(runDir, 'results.csv')).mode & 0o777).toBe(0o600);
    expect(statSync(join(runDir, 'out')).mode & 0o777).toBe(0o700);
    expect(statSync(join(runDir, 'out/deep')).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(runDir, 'out/deep/r.csv'), 'utf8')).toBe('b\n');
    // No temporary file left beside it.
    expect(readdirSync(join(runDir, 'out/deep'))).toEqual(['r.csv']);
  });

  it('refuses a path outside the run folder, absolute or by ..', async () => {
    const outside = join(base, 'elsewhere.csv');
    await expect(writePublisherFile(runDir, outside, 'results.csv', 'x', 'csv publisher')).rejects.toThrow(`csv publisher file ${outside}: outside the run folder ${runDir}`);
    await expect(writePublisherFile(runDir, '../elsewhere.csv', 'results.csv', 'x', 'csv publisher')).rejects.toThrow(/outside the run folder/);
    expect(readdirSync(base)).toEqual(['run']);
  });

  it("replaces a link at the file's name instead of writing through it, and a 0644 file by a 0600 one", async () => {
    const victim = join(base, 'victim');
    writeFileSync(victim, 'keep me\n', { mode: 0o644 });
    symlinkSync(victim, join(runDir, 'results.csv'));
    await writePublisherFile(runDir, undefined, 'results.csv', 'new\n', 'csv publisher');
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(lstatSync(join(runDir, 'results.csv')).isSymbolicLink()).toBe(false);
    writeFileSync(join(runDir, 'old.csv'), 'old\n', { mode: 0o644 });
    chmodSync(join(runDir, 'old.csv'), 0o644);
    await writePublisherFile(runDir, 'old.csv', 'results.csv', 'new\n', 'csv publisher');
    expect(statSync(join(runDir, 'old.csv')).mode & 0o777).toBe(0o600);
  });

  it('refuses a folder on the way that is a link (out of the run folder)', async () => {
    mkdirSync(join(base, 'out'));
    symlinkSync(join(base, 'out'), join(runDir, 'sub'));
    await expect(writePublisherFile(runDir, 'sub/r.csv', 'results.csv', 'x', 'csv publisher')).rejects.toThrow(/sub is a symbolic link/);
    expect(readdirSync(join(base, 'out'))).toEqual([]);
  });
});
