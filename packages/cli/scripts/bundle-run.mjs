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
import { readFile, rm } from 'node:fs/promises';
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
  plugins: [zodLocalesOnDemand()],
});
// Lazily imported parts (the PKB translator) stay separate chunks, loaded only when used.
await bundle.write({ dir: out.pathname, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'run-[name]-[hash].js' });
await bundle.close();
console.log(`${out.pathname}run.js: the run path in one module`);

/**
 * zod's 60-odd translations of its error messages (42 % of its code, most of it
 * non-ASCII text) stay out of the bundle: `locales` becomes functions that
 * `require` zod's own CommonJS file for a language on its first call. English,
 * which zod sets up at load, stays in the bundle.
 */
function zodLocalesOnDemand() {
  const VIRTUAL = '\0netbench-zod-locales';
  let index;
  return {
    name: 'netbench-zod-locales-on-demand',
    async resolveId(source, importer) {
      if (!importer || !/[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(importer) || source !== '../locales/index.js') return null;
      index = new URL(source, `file://${importer}`);
      return VIRTUAL;
    },
    async load(id) {
      if (id !== VIRTUAL) return null;
      const lines = (await readFile(index, 'utf8')).split('\n').filter((line) => line.trim());
      const names = lines.map((line) => {
        const m = /^export \{ default as ([A-Za-z_$][\w$]*) \} from "\.\/([\w-]+)\.js";$/.exec(line.trim());
        if (!m) throw new Error(`bundle-run: unexpected line in ${index.pathname}: ${line}`);
        return m.slice(1);
      });
      return [
        "import { createRequire } from 'node:module';",
        `import en from ${JSON.stringify(new URL('en.js', index).pathname)};`,
        'const require = createRequire(import.meta.url);',
        // A locale's CommonJS file sets module.exports to its function.
        'const load = (file) => (...args) => require(`zod/v4/locales/${file}.cjs`)(...args);',
        ...names.map(([name, file]) => (file === 'en' ? `export { en as ${name} };` : `export const ${name} = load(${JSON.stringify(file)});`)),
      ].join('\n');
    },
  };
}
