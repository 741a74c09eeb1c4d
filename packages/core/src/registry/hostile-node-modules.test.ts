import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRegistry } from './create-registry.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const cli = join(repo, 'packages/cli');
const coreDist = pathToFileURL(join(repo, 'packages/plugin-api/dist/index.js')).href;

let shared: string; // a world-writable folder like /tmp, where anyone may create node_modules
let work: string; // the user's working directory inside it
let marker: string;

/** A package that, when imported by anyone, leaves a marker file: proof its code ran. */
function hostile(base: string, name: string, netbench?: Record<string, unknown>): void {
  const folder = join(base, 'node_modules', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, version: '6.6.6', type: 'module', main: 'index.js', ...(netbench ? { netbench } : {}) }));
  writeFileSync(
    join(folder, 'index.js'),
    `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(marker)}, ${JSON.stringify(`${name}\n`)});
import { definePlugin } from '${coreDist}';
export default definePlugin({ kind: 'publisher', name: ${JSON.stringify(String(netbench?.['name'] ?? name.replace(/^.*netbench-plugin-/, '')))}, schema: { safeParse: (v) => ({ success: true, data: v }) }, async publish() { return { count: 0 }; } });
`,
  );
}

beforeEach(() => {
  shared = mkdtempSync(join(tmpdir(), 'nbt-hostile-'));
  chmodSync(shared, 0o1777);
  work = join(shared, 'alice', 'work');
  mkdirSync(work, { recursive: true });
  marker = join(mkdtempSync(join(tmpdir(), 'nbt-marker-')), 'imported');
  // In the shared folder and above the working directory: neither declared nor installed by the user.
  hostile(shared, 'netbench-plugin-evil');
  hostile(shared, '@evil/netbench-plugin-scoped');
  hostile(shared, 'netbench-shadow', { kind: 'publisher', name: 'shadow' });
  hostile(join(shared, 'alice'), 'netbench-plugin-near');
});
afterEach(() => {
  rmSync(shared, { recursive: true, force: true });
  rmSync(join(marker, '..'), { recursive: true, force: true });
});

describe('plugin discovery never runs code from a node_modules the user did not declare', () => {
  it("ignores netbench-plugin-* packages in the working directory's ancestors: not listed, not probed, not loadable", async () => {
    const registry = createRegistry({ searchDirs: [cli, { dir: work, origin: 'project' }], userPlugins: false });
    registry.probeAll();
    const names = registry.list().map((d) => d.name);
    expect(names).toContain('ping');
    expect(names).not.toEqual(expect.arrayContaining(['evil']));
    for (const name of ['evil', 'scoped', 'shadow', 'near']) expect(await registry.get('publisher', name)).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  });

  it('ignores a project package.json that others can write, and says why', async () => {
    writeFileSync(join(shared, 'package.json'), JSON.stringify({ name: 'trap', dependencies: { 'netbench-plugin-evil': '*', 'netbench-shadow': '*' } }));
    const registry = createRegistry({ searchDirs: [cli, { dir: join(shared, 'sub'), origin: 'project' }], userPlugins: false });
    expect(await registry.get('publisher', 'evil')).toBeUndefined();
    expect(await registry.get('publisher', 'shadow')).toBeUndefined();
    expect(registry.ignored()).toEqual([{ dir: shared, reason: `${shared} is writable by everyone` }]);
    expect(existsSync(marker)).toBe(false);
  });

  it.runIf(process.getuid?.() === 0)('ignores a project package.json that belongs to another user', async () => {
    const other = join(work, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'package.json'), JSON.stringify({ name: 'theirs', dependencies: { 'netbench-plugin-evil': '*' } }));
    chownSync(join(other, 'package.json'), 65534, 65534);
    const registry = createRegistry({ searchDirs: [{ dir: other, origin: 'project' }], userPlugins: false });
    expect(await registry.get('publisher', 'evil')).toBeUndefined();
    expect(registry.ignored()[0]?.reason).toBe(`${join(other, 'package.json')} belongs to another user (uid 65534)`);
    expect(existsSync(marker)).toBe(false);
  });

  it("loads what the user's own project declares, and imports only what is asked for", async () => {
    const project = join(work, 'project');
    mkdirSync(project, { recursive: true });
    chmodSync(project, 0o755);
    hostile(project, 'netbench-plugin-mine');
    hostile(project, 'netbench-plugin-other');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'mine', dependencies: { 'netbench-plugin-mine': '^6', 'netbench-plugin-other': '^6' } }));
    chmodSync(join(project, 'package.json'), 0o644);
    const registry = createRegistry({ searchDirs: [cli, { dir: project, origin: 'project' }], userPlugins: false });
    registry.list();
    expect(await registry.get('publisher', 'json')).toBeDefined();
    expect(existsSync(marker)).toBe(false); // nothing of the project imported before a spec needs it
    const mine = await registry.get('publisher', 'mine');
    expect(mine?.name).toBe('mine');
    expect(registry.list('publisher').find((d) => d.name === 'mine')).toMatchObject({ origin: 'project', declaredBy: join(project, 'package.json') });
    // Probing 'mine' imported it (in a child and here), and nothing else.
    expect(new Set((await import('node:fs')).readFileSync(marker, 'utf8').trim().split('\n'))).toEqual(new Set(['netbench-plugin-mine']));
  });

  // A trusted project declares plugins it has not installed: Node would take them from a node_modules above it.
  const declaredNotInstalled = () => {
    const project = join(work, 'declares');
    mkdirSync(project, { mode: 0o755 });
    chmodSync(project, 0o755);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'mine', dependencies: { 'netbench-shadow': '*', '@evil/netbench-plugin-scoped': '*', 'netbench-plugin-near': '*' } }),
      { mode: 0o644 },
    );
    return project;
  };

  it('does not load a declared plugin from an ancestor node_modules others can write', async () => {
    const project = declaredNotInstalled();
    chmodSync(join(shared, 'node_modules'), 0o777);
    chmodSync(join(shared, 'alice', 'node_modules', 'netbench-plugin-near'), 0o775);
    const registry = createRegistry({ searchDirs: [cli, { dir: project, origin: 'project' }], userPlugins: false });
    registry.probeAll();
    for (const name of ['shadow', 'scoped', 'near']) expect(await registry.get('publisher', name)).toBeUndefined();
    expect(registry.ignored()).toEqual(
      expect.arrayContaining([
        { dir: join(shared, 'node_modules', 'netbench-shadow'), reason: `netbench-shadow was not installed by you: ${join(shared, 'node_modules')} is writable by everyone` },
        {
          dir: join(shared, 'alice', 'node_modules', 'netbench-plugin-near'),
          reason: `netbench-plugin-near was not installed by you: ${join(shared, 'alice', 'node_modules', 'netbench-plugin-near')} is writable by its group`,
        },
      ]),
    );
    expect(existsSync(marker)).toBe(false);
  });

  it.runIf(process.getuid?.() === 0)('does not load a declared plugin from an ancestor node_modules another user made', async () => {
    const project = declaredNotInstalled();
    spawnSync('chown', ['-R', '65534:65534', join(shared, 'node_modules')]);
    const registry = createRegistry({ searchDirs: [cli, { dir: project, origin: 'project' }], userPlugins: false });
    expect(await registry.get('publisher', 'shadow')).toBeUndefined();
    expect(registry.ignored()).toContainEqual({
      dir: join(shared, 'node_modules', 'netbench-shadow'),
      reason: `netbench-shadow was not installed by you: ${join(shared, 'node_modules')} belongs to another user (uid 65534)`,
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('the CLI (validate, plugins list) run from below a hostile node_modules imports none of it', () => {
    const spec = join(work, 'spec.yaml');
    writeFileSync(spec, 'name: t\nhosts:\n  a: { cloud: local }\n  b: { cloud: local }\nbenchmarks:\n  - { tool: ping, client: a, server: b }\npublish:\n  - type: evil\n');
    const env = { ...process.env, NETBENCH_HOME: join(work, 'home') };
    const validate = spawnSync(process.execPath, [join(cli, 'bin/run.js'), 'validate', spec], { cwd: work, env, encoding: 'utf8' });
    expect(validate.status).toBe(2);
    expect(validate.stderr).toMatch(/publish\.0\.type.*evil/);
    const list = spawnSync(process.execPath, [join(cli, 'bin/run.js'), 'plugins', 'list', '--json'], { cwd: work, env, encoding: 'utf8' });
    expect(list.status).toBe(0);
    const listed = JSON.parse(list.stdout) as { plugins: { name: string; source: string; declaredBy?: string }[] };
    expect(listed.plugins.map((p) => p.name)).not.toContain('evil');
    expect(listed.plugins.find((p) => p.name === 'ping')).toMatchObject({ source: 'built-in', declaredBy: join(cli, 'package.json') });
    expect(existsSync(marker)).toBe(false);
  });
});
