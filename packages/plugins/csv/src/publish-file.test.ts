import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRecord } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import plugin from './index.js';

// No samples: what is checked is where the file goes and how, not its content.
const run = { runId: 'r1' } as RunRecord;
const log = { debug() {}, info() {}, warn() {} };

describe("the publisher's file", () => {
  let base: string;
  let runDir: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'nbt-publish-file-'));
    runDir = join(base, 'run');
    mkdirSync(runDir, { mode: 0o700 });
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));
  const ctx = () => ({ runId: 'r1', runDir, signal: AbortSignal.timeout(10_000), log });

  for (const publisher of [plugin]) {
    it(`${publisher.name}: a relative file is in the run folder, one outside it is refused, a link there is replaced`, async () => {
      const relative = await publisher.publish(run, [], publisher.schema.parse({ file: 'out/results.txt' }), ctx());
      expect(relative.location).toBe(join(runDir, 'out/results.txt'));
      expect(statSync(join(runDir, 'out/results.txt')).mode & 0o777).toBe(0o600);
      const outside = join(base, 'etc-passwd');
      writeFileSync(outside, 'root:x:0:0\n', { mode: 0o644 });
      await expect(publisher.publish(run, [], publisher.schema.parse({ file: outside }), ctx())).rejects.toThrow(/outside the run folder/);
      symlinkSync(outside, join(runDir, 'link.txt'));
      await publisher.publish(run, [], publisher.schema.parse({ file: 'link.txt' }), ctx());
      expect(readFileSync(outside, 'utf8')).toBe('root:x:0:0\n');
      expect(readdirSync(base).sort()).toEqual(['etc-passwd', 'run']);
    });
  }
});
