import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { definePlugin, isPlugin, PluginError, z } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRegistry } from './create-registry.js';
import { packageEntry } from './package-entry.js';
import { staticRegistry } from './static-registry.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const coreDist = pathToFileURL(join(repo, 'packages/plugin-api/dist/index.js')).href;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nbt-registry-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Write a package into `<base>/node_modules/<name>` and declare it a dependency of `<base>/package.json` (unless `declare` is false). */
async function pkg(base: string, name: string, manifest: Record<string, unknown>, files: Record<string, string>, declare = true): Promise<void> {
  if (declare) {
    await mkdir(base, { recursive: true });
    const project = JSON.parse(await readFile(join(base, 'package.json'), 'utf8').catch(() => '{"name":"project"}')) as { dependencies?: Record<string, string> };
    project.dependencies = { ...project.dependencies, [name]: '*' };
    await writeFile(join(base, 'package.json'), JSON.stringify(project));
  }
  const folder = join(base, 'node_modules', name);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', main: 'index.js', ...manifest }));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(folder, file, '..'), { recursive: true });
    await writeFile(join(folder, file), text);
  }
}

const publisherSource = (fields: string) => `import { definePlugin } from '${coreDist}';
export default definePlugin({ kind: 'publisher', schema: { safeParse: (v) => ({ success: true, data: v }) }, async publish() { return { count: 0 }; }, ${fields} });\n`;

describe('createRegistry', () => {
  it('discovers the built-in plugins installed in the workspace', async () => {
    const registry = createRegistry({ searchDirs: [join(repo, 'packages/cli')] });
    const publishers = registry.list('publisher');
    expect(publishers.map((d) => d.name)).toEqual(expect.arrayContaining(['json', 'csv']));
    const json = publishers.find((d) => d.name === 'json')!;
    expect(json).toMatchObject({ kind: 'publisher', packageName: '@netbench/plugin-json', builtin: true, dir: join(repo, 'node_modules/@netbench/plugin-json') });
    expect(
      registry
        .list()
        .filter((d) => d.kind === 'cloud')
        .map((d) => d.name),
    ).toContain('local');
    const plugin = await registry.get('publisher', 'json');
    expect(isPlugin(plugin)).toBe(true);
    expect(plugin!.name).toBe('json');
    expect(await registry.get('publisher', 'json')).toBe(plugin); // imported once
    expect(await registry.get('publisher', 'no-such')).toBeUndefined();
    expect(await registry.get('tool', 'json')).toBeUndefined();
  });

  it('finds the built-ins from core itself by default', () => {
    expect(
      createRegistry()
        .list('publisher')
        .map((d) => d.name),
    ).toEqual(expect.arrayContaining(['json', 'csv']));
  });

  it('resolves the declared dependencies of the nearest package.json like Node (ancestors, scopes), lists without importing, and prefers the nearest package', async () => {
    const project = join(dir, 'project');
    await pkg(dir, 'netbench-echo', { netbench: { kind: 'publisher', name: 'echo' }, version: '0.0.1' }, { 'index.js': publisherSource(`name: 'echo'`) }, false);
    await pkg(project, 'netbench-echo', { netbench: { kind: 'publisher', name: 'echo' }, version: '0.0.2' }, { 'index.js': publisherSource(`name: 'echo'`) });
    await pkg(
      project,
      '@acme/netbench-thing',
      { netbench: { kind: 'publisher', name: 'thing' }, main: undefined, exports: { '.': { types: './x.d.ts', import: './lib/entry.js' } } },
      { 'lib/entry.js': publisherSource(`name: 'thing'`) },
    );
    await pkg(project, 'netbench-broken', { netbench: { kind: 'publisher', name: 'broken' } }, { 'index.js': `throw new Error('boom at import');\n` });
    await pkg(project, 'left-pad', {}, { 'index.js': 'export default 1;\n' });
    await pkg(project, 'netbench-weird', { netbench: { kind: 'database', name: 'weird' } }, { 'index.js': '' });
    const nested = join(project, 'src', 'deep');
    await mkdir(nested, { recursive: true });

    const registry = createRegistry({ searchDirs: [nested] });
    const listed = registry.list().filter((d) => !d.builtin);
    expect(listed.map((d) => `${d.name}@${d.version}`).sort()).toEqual(['broken@1.0.0', 'echo@0.0.2', 'thing@1.0.0']);
    expect(listed.every((d) => !d.builtin)).toBe(true);
    expect((await registry.get('publisher', 'thing'))?.name).toBe('thing');
    const error = await registry.get('publisher', 'broken').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as Error).message).toBe('[plugin netbench-broken@1.0.0] load: boom at import');
  });

  it('also searches $NETBENCH_HOME/plugins', async () => {
    const home = join(dir, 'home');
    await pkg(join(home, 'plugins'), 'netbench-homey', { netbench: { kind: 'publisher', name: 'homey' } }, { 'index.js': publisherSource(`name: 'homey'`) });
    const saved = process.env['NETBENCH_HOME'];
    process.env['NETBENCH_HOME'] = home;
    try {
      expect(
        createRegistry({ searchDirs: [join(dir, 'elsewhere')] })
          .list()
          .map((d) => d.name),
      ).toEqual(['homey']);
    } finally {
      if (saved === undefined) delete process.env['NETBENCH_HOME'];
      else process.env['NETBENCH_HOME'] = saved;
    }
  });

  it('refuses a package whose default export is not a branded plugin', async () => {
    await pkg(
      dir,
      'netbench-plain',
      { version: '2.0.0', netbench: { kind: 'publisher', name: 'plain' } },
      {
        'index.js': `export default { kind: 'publisher', name: 'plain', schema: {}, async publish() { return { count: 0 }; } };\n`,
      },
    );
    const error = await createRegistry({ searchDirs: [dir] })
      .get('publisher', 'plain')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as Error).message).toBe(
      '[plugin netbench-plain@2.0.0] load: its default export is not a netbench plugin; export the result of definePlugin() from @netbench/plugin-api as default',
    );
  });

  it('refuses a plugin written for another contract version, naming plugin, version and supported range', async () => {
    await pkg(dir, 'netbench-future', { version: '3.1.0', netbench: { kind: 'publisher', name: 'future' } }, { 'index.js': publisherSource(`name: 'future', apiVersion: 99`) });
    await pkg(dir, 'netbench-ancient', { version: '0.1.0', netbench: { kind: 'publisher', name: 'ancient' } }, { 'index.js': publisherSource(`name: 'ancient', apiVersion: 0`) });
    const registry = createRegistry({ searchDirs: [dir] });
    await expect(registry.get('publisher', 'future')).rejects.toThrow(
      '[plugin netbench-future@3.1.0] load: it was written for plugin API version 99, but this netbench supports 1; upgrade netbench',
    );
    await expect(registry.get('publisher', 'ancient')).rejects.toThrow(
      '[plugin netbench-ancient@0.1.0] load: it was written for plugin API version 0, but this netbench supports 1; upgrade the plugin',
    );
  });

  it('refuses a plugin that is not what its package.json declares', async () => {
    await pkg(dir, 'netbench-liar', { netbench: { kind: 'publisher', name: 'liar' } }, { 'index.js': publisherSource(`name: 'truth'`) });
    await expect(createRegistry({ searchDirs: [dir] }).get('publisher', 'liar')).rejects.toThrow('package.json declares publisher "liar" but the module exports publisher "truth"');
  });
});

describe('plugin packages by name', () => {
  it('finds netbench-plugin-* and @scope/netbench-plugin-* packages that declare nothing, by importing them in a child process', async () => {
    await pkg(dir, 'netbench-plugin-echo', { version: '2.1.0' }, { 'index.js': publisherSource(`name: 'echo'`) });
    await pkg(dir, '@acme/netbench-plugin-thing', {}, { 'index.js': publisherSource(`name: 'thing'`) });
    await pkg(dir, 'netbench-plugin-crashy', {}, { 'index.js': `throw new Error('crashy at import');\n` });
    await pkg(dir, 'netbench-plugin-plain', {}, { 'index.js': 'export default { kind: "tool" };\n' });
    await pkg(dir, 'not-a-netbench-plugin', {}, { 'index.js': publisherSource(`name: 'hidden'`) });
    const registry = createRegistry({ searchDirs: [dir], userPlugins: false });
    expect(registry.list()).toEqual([]); // listing does not import
    registry.probeAll();
    expect(
      registry
        .list()
        .map((d) => `${d.kind} ${d.name} ${d.packageName}@${d.version}`)
        .sort(),
    ).toEqual(['publisher echo netbench-plugin-echo@2.1.0', 'publisher thing @acme/netbench-plugin-thing@1.0.0']);
    expect(
      registry
        .problems()
        .map((p) => `${p.packageName}: ${p.error}`)
        .sort(),
    ).toEqual(['netbench-plugin-crashy: crashy at import', 'netbench-plugin-plain: its default export is not a netbench plugin (made with definePlugin)']);
    expect((await registry.get('publisher', 'thing'))?.name).toBe('thing');
  });

  it("takes kind and name from the project's own declarations without importing", async () => {
    // The module would throw if imported: the declaration alone must list it.
    await pkg(dir, 'netbench-plugin-declared', {}, { 'index.js': `throw new Error('imported');\n` });
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'project', dependencies: { 'netbench-plugin-declared': '*' }, netbench: { plugins: { 'netbench-plugin-declared': { kind: 'tool', name: 'decl' } } } }),
    );
    const registry = createRegistry({ searchDirs: [dir], userPlugins: false });
    expect(registry.list('tool').map((d) => d.name)).toEqual(['decl']);
    expect(registry.problems()).toEqual([]);
    await expect(registry.get('tool', 'decl')).rejects.toThrow('[plugin netbench-plugin-declared@1.0.0] load: imported');
  });

  it('leaves the user plugin folder out when told to', async () => {
    const home = join(dir, 'plugins');
    await pkg(home, 'netbench-homey', { netbench: { kind: 'publisher', name: 'homey' } }, { 'index.js': publisherSource(`name: 'homey'`) });
    expect(
      createRegistry({ searchDirs: [join(dir, 'x')], userPlugins: home })
        .list()
        .map((d) => d.name),
    ).toEqual(['homey']);
    expect(createRegistry({ searchDirs: [join(dir, 'x')], userPlugins: false }).list()).toEqual([]);
  });
});

describe('packageEntry', () => {
  it('follows exports like Node, then main', () => {
    expect(packageEntry('/p', { exports: './a.js' })).toBe('/p/a.js');
    expect(packageEntry('/p', { exports: { '.': { types: './a.d.ts', require: './a.cjs', default: './a.js' }, './x': './x.js' } })).toBe('/p/a.js');
    expect(packageEntry('/p', { exports: { import: './m.js', default: './d.js' } })).toBe('/p/m.js');
    expect(packageEntry('/p', { exports: { '.': [{ require: './r.cjs' }, './f.js'] } })).toBe('/p/f.js');
    expect(packageEntry('/p', { exports: { './x': './x.js' } })).toBeUndefined();
  });
});

describe('staticRegistry', () => {
  it('resolves the plugins it was given', async () => {
    const plugin = definePlugin({
      kind: 'publisher',
      name: 'mem',
      schema: z.strictObject({}),
      async publish() {
        return { count: 0 };
      },
    });
    const registry = staticRegistry([plugin]);
    expect(registry.list()).toEqual([{ kind: 'publisher', name: 'mem', packageName: '(static) mem', version: '0.0.0', dir: '', builtin: false }]);
    expect(await registry.get('publisher', 'mem')).toBe(plugin);
    expect(await registry.get('cloud', 'mem')).toBeUndefined();
  });
});
