import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { codeCacheDir, loadRunBundle, SHARED_GLOBAL } from './run-bundle.js';

const root = mkdtempSync(join(tmpdir(), 'netbench-run-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A script shaped like dist/bundle/run.cjs: CommonJS exports, `require`, and `import()` through the loader.
const SCRIPT = [
  'const { join } = require("node:path");',
  'function work(n) { let s = 0; for (let i = 0; i < n; i += 1) s += i; return s; }',
  'exports.fastRun = async (argv) => { const os = await __netbenchImport("node:os"); return `${argv.join(" ")} ${typeof os.platform} ${join("a", "b")} ${work(10)} ${__filename.endsWith(".cjs")}`; };',
  'exports.shared = { zod: { z: 1 } };',
].join('\n');

function scriptFile(name: string): URL {
  const file = join(root, name);
  writeFileSync(file, SCRIPT);
  return pathToFileURL(file);
}

describe('the run bundle, loaded through vm with a code cache taken after the run', () => {
  it('runs the script: its exports, require, import() through the loader, __filename; shares its modules', async () => {
    const { exports, cache } = loadRunBundle(scriptFile('plain.cjs'), { cacheDir: undefined });
    expect(cache).toBe('none');
    expect(await exports.fastRun(['run', 'x'])).toBe('run x function a/b 45 true');
    expect((globalThis as Record<symbol, unknown>)[SHARED_GLOBAL]).toEqual({ zod: { z: 1 } });
  });

  it('writes the cache when a run ends well, uses it next time, and rewrites it when V8 refuses it', async () => {
    const cacheDir = join(root, 'cache-a');
    mkdirSync(cacheDir, { mode: 0o700 });
    const url = scriptFile('cached.cjs');
    const saves: ((code: number) => void)[] = [];
    const load = () => loadRunBundle(url, { cacheDir, onExit: (save) => saves.push(save) });

    const first = load();
    await first.exports.fastRun(['x']);
    saves.shift()!(0);
    const [file] = readdirSync(cacheDir);
    expect(file).toMatch(/^run-v\d+\.\d+\.\d+-\w+-\d+-\d+-\d+-\d+\.[0-9a-f]{8}\.complete\.v8$/);
    expect(statSync(join(cacheDir, file!)).mode & 0o777).toBe(0o600);

    const second = load();
    expect(second.cache).toBe('accepted');
    expect(await second.exports.fastRun(['y'])).toBe('y function a/b 45 true');
    saves.shift()!(0);
    // Accepted and already from a run that ended well: left as it is.
    expect(readdirSync(cacheDir)).toEqual([file]);

    // In another process (this one's V8 keeps the script it compiled): a cache V8 refuses is rewritten.
    writeFileSync(join(cacheDir, file!), 'not a V8 code cache');
    const child = (code: number) => {
      const runner = [
        `const { loadRunBundle } = await import(${JSON.stringify(new URL('../dist/run-bundle.js', import.meta.url).href)});`,
        `const { cache } = loadRunBundle(new URL(${JSON.stringify(url.href)}), { cacheDir: ${JSON.stringify(cacheDir)} });`,
        `console.log(cache); process.exitCode = ${code};`,
      ].join('\n');
      return spawnSync(process.execPath, ['--input-type=module', '-e', runner], { encoding: 'utf8' });
    };
    expect(child(0).stdout.trim()).toBe('rejected');
    expect(child(0).stdout.trim()).toBe('accepted');
    expect(readdirSync(cacheDir)).toEqual([file]);
  });

  it('keeps a cache of a run that failed only until a run ends well, and removes the caches of other builds', () => {
    const cacheDir = join(root, 'cache-b');
    mkdirSync(cacheDir, { mode: 0o700 });
    writeFileSync(join(cacheDir, 'run-v0.0.0-x64-1-1.complete.v8'), 'an older build');
    const url = scriptFile('partial.cjs');
    const saves: ((code: number) => void)[] = [];
    const load = () => loadRunBundle(url, { cacheDir, onExit: (save) => saves.push(save) });
    load();
    saves.shift()!(2);
    expect(readdirSync(cacheDir)).toEqual([expect.stringMatching(/^run-v\d.*\.[0-9a-f]{8}\.v8$/)]);
    expect(readdirSync(cacheDir)[0]).not.toMatch(/complete/);
    expect(load().cache).toBe('accepted');
    saves.shift()!(0);
    expect(readdirSync(cacheDir)).toEqual([expect.stringMatching(/\.complete\.v8$/)]);
  });

  it("keeps one cache per variant (spec); a variant without one starts from another variant's", async () => {
    const cacheDir = join(root, 'cache-c');
    mkdirSync(cacheDir, { mode: 0o700 });
    const url = scriptFile('variants.cjs');
    const saves: ((code: number) => void)[] = [];
    const load = (variant: string) => loadRunBundle(url, { cacheDir, variant, onExit: (save) => saves.push(save) });
    expect(load('/specs/a.yaml').cache).toBe('none');
    saves.shift()!(0);
    expect(readdirSync(cacheDir)).toHaveLength(1);
    // b has none: it uses a's, then writes its own after a run that ended well; a's stays.
    expect(load('/specs/b.yaml').cache).toBe('accepted');
    saves.shift()!(0);
    expect(readdirSync(cacheDir)).toHaveLength(2);
    expect(load('/specs/b.yaml').cache).toBe('accepted');
    saves.shift()!(0);
    expect(readdirSync(cacheDir)).toHaveLength(2);
  });

  it('keeps its caches in $NETBENCH_HOME/cache or $NETBENCH_CODE_CACHE, private; none when turned off or when others can write the folder', () => {
    const home = join(root, 'home');
    expect(codeCacheDir({ NETBENCH_HOME: home })).toBe(join(home, 'cache'));
    expect(statSync(join(home, 'cache')).mode & 0o777).toBe(0o700);
    expect(codeCacheDir({ NETBENCH_HOME: home, NETBENCH_CODE_CACHE: 'off' })).toBeUndefined();
    expect(codeCacheDir({ NETBENCH_HOME: home, NETBENCH_CODE_CACHE: join(root, 'elsewhere') })).toBe(join(root, 'elsewhere'));
    chmodSync(join(home, 'cache'), 0o777);
    expect(codeCacheDir({ NETBENCH_HOME: home })).toBeUndefined();
    expect(existsSync(join(home, 'cache'))).toBe(true);
  });
});
