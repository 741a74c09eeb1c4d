// Writes each built-in plugin's one-file bundle (the file its package.json
// names as `netbench.bundle`, beside its compiled entry): the entry and the
// package's own modules, everything it imports by package name (plugin-api,
// zod, cloud SDKs, node:) left outside. A run then loads one module per
// plugin instead of dozens; core's loader uses the bundle only
// while it is at least as new as the compiled code (registry/plugin-bundle.ts),
// so a `tsc -b` without this step never runs a stale one. Run after `tsc`
// (npm run build). Lazily imported parts become chunks beside the bundle.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const plugins = fileURLToPath(new URL('../packages/plugins/', import.meta.url));
let count = 0;
for (const name of readdirSync(plugins).sort()) {
  const dir = join(plugins, name);
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  const bundle = pkg.netbench?.bundle;
  if (typeof bundle !== 'string') continue;
  const entry = join(dir, pkg.exports?.['.']?.default ?? pkg.main);
  const out = join(dir, bundle);
  const stem = basename(out, '.js');
  if (dirname(out) !== dirname(entry)) throw new Error(`${pkg.name}: netbench.bundle must sit beside the entry ${entry}`);
  for (const file of readdirSync(dirname(out))) if (file.startsWith(`${stem}.`) || file.startsWith(`${stem}-`)) rmSync(join(dirname(out), file));
  const build = await rolldown({ input: entry, platform: 'node', external: [/^[^./]/], logLevel: 'warn' });
  await build.write({ dir: dirname(out), format: 'esm', entryFileNames: basename(out), chunkFileNames: `${stem}-[name]-[hash].js` });
  await build.close();
  count += 1;
}
console.log(`bundled ${count} plugins (netbench.bundle)`);
