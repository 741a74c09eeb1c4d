import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_MODULES } from './shared-modules.js';

// The run bundle holds zod and plugin-api; a plugin's imports of them must get those copies.
// In a child process (the hook is process-wide): built code, as `bin/run.js` runs it (`npm run build` first).
const dist = new URL('../dist/', import.meta.url);
const bundleDir = new URL('bundle/', dist);
const plugin = new URL('../../plugins/netperf/dist/index.js', import.meta.url);

// A plugin folder with a zod of its own (say, another version).
let ownDir: string;
beforeAll(() => {
  ownDir = mkdtempSync(join(tmpdir(), 'nbt-own-zod-'));
  mkdirSync(join(ownDir, 'node_modules/zod'), { recursive: true });
  writeFileSync(join(ownDir, 'node_modules/zod/package.json'), JSON.stringify({ name: 'zod', version: '3.0.0', type: 'module', exports: { '.': './index.js' } }));
  writeFileSync(join(ownDir, 'node_modules/zod/index.js'), 'export const own = true;\n');
  writeFileSync(join(ownDir, 'package.json'), JSON.stringify({ name: 'own-plugin', type: 'module' }));
  writeFileSync(join(ownDir, 'plugin.js'), "import * as zod from 'zod';\nexport const ownZod = zod.own === true;\n");
});
afterAll(() => rmSync(ownDir, { recursive: true, force: true }));

describe('shareBundledModules', () => {
  it("hands a plugin the bundle's zod and plugin-api, one copy with the engine's, leaves other specifiers alone, and leaves a plugin its own zod", async () => {
    const script = `
      // As bin/run.js does: the run bundle (a classic script through vm), then the hook.
      const { loadRunBundle } = await import(${JSON.stringify(new URL('run-bundle.js', dist).href)});
      const { exports: bundle } = loadRunBundle(new URL('run.cjs', ${JSON.stringify(bundleDir.href)}), { cacheDir: undefined });
      const { shareBundledModules } = await import(${JSON.stringify(new URL('shared-modules.js', dist).href)});
      shareBundledModules(new URL(${JSON.stringify(bundleDir.href)}));
      // What the specifiers resolve to from the netperf plugin's folder (this script's working directory).
      const from = ${JSON.stringify(plugin.href)};
      const resolved = {};
      for (const s of ${JSON.stringify([...Object.keys(SHARED_MODULES), 'zod/v4/core'])}) resolved[s] = import.meta.resolve(s);

      const api = await import('@netbench/plugin-api');
      const viaBundle = await import(${JSON.stringify(new URL('shared-plugin-api.js', bundleDir).href)});
      const netperf = (await import(from)).default;
      // A plugin that brings its own zod keeps it.
      const ownZod = (await import(${JSON.stringify(pathToFileURL(join(ownDir, 'plugin.js')).href)})).ownZod;
      const engineClass = bundle.shared['@netbench/plugin-api'].NetbenchError;
      console.log(JSON.stringify({ resolved, ownZod, sameClass: api.NetbenchError === viaBundle.NetbenchError && api.NetbenchError === engineClass, pluginName: netperf.name, schemaIsZod: typeof netperf.schema?.safeParse === 'function' && netperf.schema instanceof bundle.shared.zod.ZodType }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../plugins/netperf/', import.meta.url)),
    });
    const out = JSON.parse(stdout) as { resolved: Record<string, string>; ownZod: boolean; sameClass: boolean; pluginName: string; schemaIsZod: boolean };
    for (const [specifier, file] of Object.entries(SHARED_MODULES)) expect(out.resolved[specifier], specifier).toBe(new URL(file, bundleDir).href);
    expect(out.resolved['zod/v4/core']).toMatch(/\/node_modules\/zod\/v4\/core\//);
    expect(out.ownZod).toBe(true);
    expect(out.sameClass).toBe(true);
    expect(out.pluginName).toBe('netperf');
    expect(out.schemaIsZod).toBe(true);
  });
});
