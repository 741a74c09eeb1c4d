// Compiled code netbench runs is cached only in its private folder: never in
// Node's default (the OS temp folder), where another user can plant an entry
// that a root run would execute.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliBin, repoRoot } from './helpers/cli.js';
import { otherUser } from './helpers/other-user.js';

const root = process.getuid?.() === 0;
const run = promisify(execFile);

// Root only: the case that matters is a root run beside a folder another user owns.
describe.skipIf(!root)('code caches', () => {
  let base: string;
  let foreignTmp: string;
  let count = 0;
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'nbt-code-cache-'));
  });
  // Each test its own $TMPDIR, another user's (as /tmp/<user> or a shared folder is).
  beforeEach(() => {
    const other = otherUser();
    count += 1;
    foreignTmp = join(base, `tmp-${count}`);
    mkdirSync(foreignTmp, { mode: 0o755 });
    chownSync(foreignTmp, other.uid, other.gid);
  });
  afterAll(() => rmSync(base, { force: true, recursive: true }));

  const env = (home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
    const clean = { ...process.env };
    // Node's own switches would decide for us.
    delete clean['NODE_COMPILE_CACHE'];
    delete clean['NODE_DISABLE_COMPILE_CACHE'];
    delete clean['NETBENCH_CODE_CACHE'];
    return { ...clean, TMPDIR: foreignTmp, NETBENCH_HOME: home, ...extra };
  };

  it("the CLI keeps Node's compile cache in $NETBENCH_HOME/cache, nothing in $TMPDIR", async () => {
    const home = join(base, 'home-on');
    await run(process.execPath, [cliBin, '--version'], { env: env(home), cwd: repoRoot });
    expect(readdirSync(foreignTmp)).toEqual([]);
    expect(readdirSync(join(home, 'cache', 'node')).length).toBeGreaterThan(0);
  });

  it('NETBENCH_CODE_CACHE=off: no cache anywhere, for the CLI and for ECharts', async () => {
    const home = join(base, 'home-off');
    await run(process.execPath, [cliBin, '--version'], { env: env(home, { NETBENCH_CODE_CACHE: 'off' }), cwd: repoRoot });
    const echarts = new URL('../packages/report/dist/echarts.js', import.meta.url).href;
    await run(process.execPath, ['--input-type=module', '-e', `(await import(${JSON.stringify(echarts)})).echarts();`], {
      env: env(home, { NETBENCH_CODE_CACHE: 'off' }),
      cwd: repoRoot,
    });
    expect(readdirSync(foreignTmp)).toEqual([]);
    expect(existsSync(join(home, 'cache'))).toBe(false);
  });

  it('ECharts alone turns on no cache (its default folder is the OS temp folder)', async () => {
    const home = join(base, 'home-echarts');
    const echarts = new URL('../packages/report/dist/echarts.js', import.meta.url).href;
    await run(process.execPath, ['--input-type=module', '-e', `(await import(${JSON.stringify(echarts)})).echarts();`], { env: env(home), cwd: repoRoot });
    expect(readdirSync(foreignTmp)).toEqual([]);
  });
});
