// Writes dist/bundle/run.js: `netbench run`'s own code (the CLI's run path,
// @netbench/core, @netbench/results store, yaml) as one module, so a
// run loads a few files instead of ~250 (issue 19: module resolution was the
// largest part of a run's start-up CPU). Run after `tsc` (npm run build).
// zod and @netbench/plugin-api are inside too, as entries of their own
// (`shared-*.js`): the plugins a run loads must use the very same copies as the
// engine (one NetbenchError class, one zod), so `bin/run.js` registers a
// resolve hook (src/shared-modules.ts) that hands a plugin's `import 'zod'` or
// `'@netbench/plugin-api/...'` these entries. Loading ~170 modules of theirs one
// by one was most of the start-up left (issue 19). ssh2 stays outside (native
// parts, loaded on first connection), and cel-js and re2js, which core loads
// with `require` only for a spec with filters; hdr-histogram-js too: its compression
// reaches zlib through `eval("require(...)")`, which an ES module bundle has no
// `require` for.
// `bin/run.js` uses the bundle only when it is newer than the compiled code
// it was made from, so a `tsc -b` without this step never runs stale code.
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { SHARED_MODULES } from '../dist/shared-modules.js';

const dist = new URL('../dist/', import.meta.url);
const out = new URL('bundle/', dist);
await rm(out, { recursive: true, force: true });
// run.js, and one entry per module shared with the plugins (its exports kept whole: plugins may use any of them).
const input = { run: new URL('fast-run.js', dist).pathname };
for (const [specifier, file] of Object.entries(SHARED_MODULES)) input[file.replace(/\.js$/, '')] = fileURLToPath(import.meta.resolve(specifier));
const bundle = await rolldown({
  input,
  platform: 'node',
  external: [/^ssh2$/, /^@marcbachmann\/cel-js$/, /^re2js$/, /^hdr-histogram-js$/, /^node:/],
  logLevel: 'warn',
});
// Lazily imported parts (the PKB translator) stay separate chunks, loaded only when used.
await bundle.write({ dir: out.pathname, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'run-[name]-[hash].js' });
await bundle.close();
console.log(`${out.pathname}run.js: the run path in one module`);
