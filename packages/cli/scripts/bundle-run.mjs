// Writes dist/bundle/run.js: `netbench run`'s own code (the CLI's run path,
// @netbench/core, @netbench/results store, yaml) as one module, so a
// run loads a few files instead of ~250 (issue 19: module resolution was the
// largest part of a run's start-up CPU). Run after `tsc` (npm run build).
// What plugins share with the engine stays outside, loaded once for both:
// @netbench/plugin-api (errors, brands, kits) and zod (schemas the engine
// merges); ssh2 stays outside too (native parts, loaded on first connection),
// and cel-js, which core loads with `require` only for a spec with filters;
// hdr-histogram-js too: plugin-api loads it anyway, and its compression reaches
// zlib through `eval("require(...)")`, which an ES module bundle has no `require` for.
// `bin/run.js` uses the bundle only when it is newer than the compiled code
// it was made from, so a `tsc -b` without this step never runs stale code.
import { rm } from 'node:fs/promises';
import { rolldown } from 'rolldown';

const dist = new URL('../dist/', import.meta.url);
const out = new URL('bundle/', dist);
await rm(out, { recursive: true, force: true });
const bundle = await rolldown({
  input: new URL('fast-run.js', dist).pathname,
  platform: 'node',
  external: [/^@netbench\/plugin-api(\/|$)/, /^zod(\/|$)/, /^ssh2$/, /^@marcbachmann\/cel-js$/, /^hdr-histogram-js$/, /^node:/],
  logLevel: 'warn',
});
// Lazily imported parts (the PKB translator) stay separate chunks, loaded only when used.
await bundle.write({ dir: out.pathname, format: 'esm', entryFileNames: 'run.js', chunkFileNames: 'run-[name]-[hash].js' });
await bundle.close();
console.log(`${out.pathname}run.js: the run path in one module`);
