// `plugins add|remove|list|info|new` against a temporary user plugin folder, with the real npm.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NetbenchError } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPlugin } from './add-plugin.js';
import { listPlugins } from './list-plugins.js';
import { newPlugin } from './new-plugin.js';
import { npmArgv } from './npm-command.js';
import { pluginInfo } from './plugin-info.js';
import { removePlugin } from './remove-plugin.js';

let root: string;
let userDir: string;
const cli = join(import.meta.dirname, '../../../cli');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'nbt-plugins-admin-'));
  userDir = join(root, 'home', 'plugins');
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Write a plugin package and `npm pack` it; returns the tarball. */
async function packed(name: string, manifest: Record<string, unknown>, source: string): Promise<string> {
  const dir = join(root, 'src', name.replace('/', '-'));
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name, version: '1.2.3', type: 'module', main: 'index.js', peerDependencies: { '@netbench/plugin-api': '^0.1.0' }, ...manifest }),
  );
  await writeFile(join(dir, 'index.js'), source);
  const [command, ...args] = npmArgv();
  const file = execFileSync(command!, [...args, 'pack', '--silent', '--pack-destination', root], { cwd: dir, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!;
  return join(root, file);
}

const publisher = (name: string, extra = '') => `import { definePlugin } from '@netbench/plugin-api';
import { z } from '@netbench/plugin-api';
export default definePlugin({ kind: 'publisher', name: '${name}', version: '1.2.3', ${extra}
  schema: z.strictObject({ table: z.string().default('samples').describe('Where to write.') }),
  async publish(run, samples) { return { count: samples.length }; } });\n`;

const errorOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error,
  );

describe('plugins add, list, info, remove', () => {
  it('info names every optional hook a plugin has, sniff and the declarations included', async () => {
    const ping = await pluginInfo({ name: 'ping', dir: userDir, searchDirs: [cli] });
    expect(ping.hooks).toContain('sniff');
    expect(ping.hooks).not.toContain('counters');
    // iperf3 adds its own counters to each trial's explain record (ToolPlugin.counters).
    expect((await pluginInfo({ name: 'iperf3', dir: userDir, searchDirs: [cli] })).hooks).toContain('counters');
    const aws = await pluginInfo({ name: 'aws', dir: userDir, searchDirs: [cli] });
    expect(aws.hooks).toEqual(expect.arrayContaining(['reattach', 'admitPeers', 'cleanup', 'estimateCost', 'catalog', 'diagnose']));
  });

  it('installs a tarball into the user folder, where it resolves the running core, and lists it as user', async () => {
    const tarball = await packed('netbench-plugin-sink', { netbench: { kind: 'publisher', name: 'sink' } }, publisher('sink'));
    const added = await addPlugin({ spec: tarball, dir: userDir, searchDirs: [cli] });
    expect(added).toMatchObject({ kind: 'publisher', name: 'sink', packageName: 'netbench-plugin-sink', version: '1.2.3', apiVersion: 1 });
    // The peer dependency is the CLI's own SDK, linked, not a fetched copy.
    const project = JSON.parse(readFileSync(join(userDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(project.dependencies['@netbench/plugin-api']).toBe(`file:${join(import.meta.dirname, '../../../plugin-api')}`);
    expect(project.dependencies['@netbench/core']).toBeUndefined();
    expect(existsSync(join(userDir, 'tarballs', 'netbench-plugin-sink-1.2.3.tgz'))).toBe(true);

    const listed = listPlugins({ dir: userDir, searchDirs: [cli] }).plugins;
    expect(listed.find((p) => p.name === 'sink')).toMatchObject({ source: 'user', version: '1.2.3', dir: join(userDir, 'node_modules/netbench-plugin-sink') });
    expect(listed.find((p) => p.name === 'json')).toMatchObject({ source: 'built-in', kind: 'publisher' });

    const info = await pluginInfo({ name: 'netbench-plugin-sink', dir: userDir, searchDirs: [cli] });
    expect(info).toMatchObject({ kind: 'publisher', name: 'sink', source: 'user', apiVersion: 1, hooks: [] });
    expect(info.fields).toEqual([{ name: 'table', type: 'string', required: false, default: 'samples', description: 'Where to write.' }]);

    // A newer version replaces the older one's tarball; remove leaves none behind.
    const newer = await packed('netbench-plugin-sink', { version: '1.3.0', netbench: { kind: 'publisher', name: 'sink' } }, publisher('sink'));
    expect(await addPlugin({ spec: newer, dir: userDir, searchDirs: [cli] })).toMatchObject({ version: '1.3.0' });
    expect(readdirSync(join(userDir, 'tarballs'))).toEqual(['netbench-plugin-sink-1.3.0.tgz']);
    const removed = await removePlugin({ name: 'sink', dir: userDir, searchDirs: [cli] });
    expect(removed.packageName).toBe('netbench-plugin-sink');
    expect(existsSync(join(userDir, 'node_modules/netbench-plugin-sink'))).toBe(false);
    expect(readdirSync(join(userDir, 'tarballs'))).toEqual([]);
    expect(listPlugins({ dir: userDir, searchDirs: [cli] }).plugins.some((p) => p.name === 'sink')).toBe(false);
  });

  it('runs no install script: not of a package it then refuses, nor of a plugin it accepts', async () => {
    const marks = join(root, 'script-marks');
    await mkdir(marks, { recursive: true });
    const scripts = (tag: string) => ({ scripts: Object.fromEntries(['preinstall', 'install', 'postinstall'].map((s) => [s, `touch ${join(marks, `${tag}-${s}`)}`])) });
    const notPlugin = await packed('left-pad-ish', scripts('refused'), 'export default 1;\n');
    expect((await errorOf(addPlugin({ spec: notPlugin, dir: userDir, searchDirs: [cli] })))?.message).toMatch(/left-pad-ish@1\.2\.3 is not a netbench plugin.*it was uninstalled/);
    const plugin = await packed('netbench-plugin-scripted', { netbench: { kind: 'publisher', name: 'scripted' }, ...scripts('accepted') }, publisher('scripted'));
    expect(await addPlugin({ spec: plugin, dir: userDir, searchDirs: [cli] })).toMatchObject({ name: 'scripted' });
    await removePlugin({ name: 'scripted', dir: userDir, searchDirs: [cli] });
    expect(readdirSync(marks)).toEqual([]);
  });

  it('records what importing an undeclared netbench-plugin-* package told, so discovery needs no probe', async () => {
    const tarball = await packed('@acme/netbench-plugin-quiet', {}, publisher('quiet'));
    await addPlugin({ spec: tarball, dir: userDir, searchDirs: [cli] });
    const project = JSON.parse(readFileSync(join(userDir, 'package.json'), 'utf8')) as { netbench: { plugins: Record<string, unknown> } };
    expect(project.netbench.plugins['@acme/netbench-plugin-quiet']).toEqual({ kind: 'publisher', name: 'quiet' });
    expect(listPlugins({ dir: userDir, searchDirs: [cli] }).plugins.find((p) => p.name === 'quiet')?.packageName).toBe('@acme/netbench-plugin-quiet');
    await removePlugin({ name: '@acme/netbench-plugin-quiet', dir: userDir, searchDirs: [cli] });
    expect((JSON.parse(readFileSync(join(userDir, 'package.json'), 'utf8')) as { netbench: { plugins: Record<string, unknown> } }).netbench.plugins).toEqual({});
  });

  it('refuses, uninstalls and explains: not a plugin, another API version, a name taken, a broken module', async () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['left-pad-ish', {}, 'export default 1;\n', /^left-pad-ish@1\.2\.3 is not a netbench plugin: its package\.json has no "netbench".*; it was uninstalled$/],
      [
        'netbench-plugin-future',
        { netbench: { kind: 'publisher', name: 'future' } },
        publisher('future', 'apiVersion: 99,'),
        /^netbench-plugin-future@1\.2\.3 cannot be used: \[plugin netbench-plugin-future@1\.2\.3\] load: it was written for plugin API version 99, but this netbench supports 1; upgrade netbench; it was uninstalled$/,
      ],
      [
        'netbench-plugin-json-clone',
        { netbench: { kind: 'publisher', name: 'json' } },
        publisher('json'),
        /is publisher "json", a name @netbench\/plugin-json@0\.1\.0 already has; it was uninstalled/,
      ],
      [
        'netbench-plugin-boom',
        { netbench: { kind: 'publisher', name: 'boom' } },
        `throw new Error('boom: no config');\n`,
        /cannot be used: \[plugin netbench-plugin-boom@1\.2\.3\] load: boom: no config; it was uninstalled/,
      ],
    ];
    for (const [name, manifest, source, message] of cases) {
      const error = await errorOf(addPlugin({ spec: await packed(name, manifest, source), dir: userDir, searchDirs: [cli] }));
      expect(error).toBeInstanceOf(NetbenchError);
      expect(error!.message).toMatch(message);
      expect(existsSync(join(userDir, 'node_modules', name))).toBe(false);
    }
    const future = await errorOf(addPlugin({ spec: join(root, 'netbench-plugin-future-1.2.3.tgz'), dir: userDir, searchDirs: [cli] }));
    expect((future!.cause as Error).message).toMatch(/plugin API version 99/);
  });

  it('refuses to remove a built-in or an unknown plugin', async () => {
    await expect(removePlugin({ name: 'ping', dir: userDir, searchDirs: [cli] })).rejects.toThrow(
      'tool ping is built into netbench; only plugins added with `netbench plugins add` can be removed',
    );
    await expect(removePlugin({ name: 'nope', dir: userDir, searchDirs: [cli] })).rejects.toThrow(/^no plugin named nope was added/);
  });

  it('reports a spec that is neither a file nor installable', async () => {
    await expect(addPlugin({ spec: './missing-1.0.0.tgz', cwd: root, dir: userDir })).rejects.toThrow('./missing-1.0.0.tgz: no such file or folder');
  });
});

describe('plugins new', () => {
  it('says that the plugin needs Node 22.13 before vitest fails on an older one with Map.groupBy is not a function', async () => {
    const made = await newPlugin({ kind: 'tool', name: 'demo-node', cwd: join(root, 'scaffolds') });
    const pretest = (JSON.parse(readFileSync(join(made.dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['pretest']!;
    const [, script] = /^node -e "(.*)"$/.exec(pretest)!;
    const older = join(root, 'older-node.mjs');
    await writeFile(older, "Object.defineProperty(process.versions, 'node', { value: '22.12.0' });\n");
    const run = (preload: string[]) => spawnSync(process.execPath, [...preload, '-e', script!], { encoding: 'utf8' });
    const refused = run(['--import', older]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('this plugin needs Node >= 22.13 (this is 22.12.0)');
    expect(refused.stderr).toContain('Map.groupBy is not a function');
    expect(run([]).status).toBe(0);
  });

  it('writes a package for each kind, and refuses bad names and non-empty folders', async () => {
    for (const kind of ['tool', 'cloud', 'publisher'] as const) {
      const made = await newPlugin({ kind, name: `demo-${kind}`, cwd: join(root, 'scaffolds') });
      expect(made.packageName).toBe(`netbench-plugin-demo-${kind}`);
      expect(made.files).toEqual(expect.arrayContaining(['package.json', 'tsconfig.json', 'README.md', 'src/index.ts', 'src/conformance.test.ts']));
      const manifest = JSON.parse(readFileSync(join(made.dir, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
      expect(manifest['netbench']).toEqual({ kind, name: `demo-${kind}` });
      expect(manifest['peerDependencies']).toEqual({ '@netbench/plugin-api': '^0.1.0' });
      expect(manifest['engines']).toEqual({ node: '>=22.13' });
      // Out of the box: the installed netbench's own SDK, so npm install needs no registry.
      expect(manifest['devDependencies']?.['@netbench/plugin-api']).toBe(`file:${join(import.meta.dirname, '../../../plugin-api')}`);
      // One entry convention: made in src/plugin.ts, default-exported by src/index.ts.
      expect(readFileSync(join(made.dir, 'src/plugin.ts'), 'utf8')).toContain(`name: 'demo-${kind}'`);
      expect(readFileSync(join(made.dir, 'src/index.ts'), 'utf8')).toBe(`export { demo${kind[0]!.toUpperCase()}${kind.slice(1)}Plugin as default } from './plugin.js';\n`);
    }
    await expect(newPlugin({ kind: 'tool', name: 'demo-tool', cwd: join(root, 'scaffolds') })).rejects.toThrow(/exists and is not empty: choose another --dir, or pass --force/);
    const again = await newPlugin({ kind: 'tool', name: 'demo-tool', cwd: join(root, 'scaffolds'), force: true });
    expect(again.files).toContain('src/index.ts');
    await expect(newPlugin({ kind: 'tool', name: 'Bad Name', cwd: root })).rejects.toThrow(/use lower-case letters/);
  });
});
