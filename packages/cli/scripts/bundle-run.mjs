// Writes dist/bundle/run.cjs: `netbench run`'s own code (the CLI's run path,
// @netbench/core, @netbench/results store, yaml), zod and @netbench/plugin-api
// as one classic script, so a run loads one file instead of ~250
// (module resolution was the largest part of a run's start-up CPU). Run after
// `tsc` (npm run build).
// One classic script, not an ES module: `src/run-bundle.ts` loads it with
// `vm.Script` and keeps V8's code cache of it taken *after* a run, which holds
// every function the run compiled; Node's own compile cache is taken before a
// module runs and holds only its top-level code, so each run compiled the rest
// again.
// The plugins a run loads must use the very same zod and plugin-api as the
// engine (one NetbenchError class, one zod): the script exports them
// (`shared`), and `dist/bundle/shared-*.js`, written here, are ES modules that
// re-export them; `bin/run.js` registers a resolve hook (src/shared-modules.ts)
// that hands a plugin's `import 'zod'` or `'@netbench/plugin-api/...'` these
// files. ssh2 stays outside (native parts, loaded on first connection), and
// cel-js and re2js, which core loads with `require` only for a spec with
// filters; hdr-histogram-js too (its compression reaches zlib through
// `eval("require(...)")`).
// `bin/run.js` uses the bundle only when it is newer than the compiled code
// it was made from, so a `tsc -b` without this step never runs stale code.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';
import { SHARED_MODULES } from '../dist/shared-modules.js';

const dist = new URL('../dist/', import.meta.url);
const out = new URL('bundle/', dist);
await rm(out, { recursive: true, force: true });
const ENTRY = '\0netbench-run-bundle';
const bundle = await rolldown({
  input: ENTRY,
  platform: 'node',
  external: [/^ssh2$/, /^@marcbachmann\/cel-js$/, /^re2js$/, /^hdr-histogram-js$/, /^node:/],
  logLevel: 'warn',
  plugins: [runBundleEntry(ENTRY), zodLocalesOnDemand()],
});
// One file: what a run may import later (the PKB translator) is inside, behind a lazy initializer, so the
// cache covers it too and nothing is split off into files the cache would not see.
await bundle.write({ dir: out.pathname, format: 'cjs', entryFileNames: 'run.cjs', codeSplitting: false, plugins: [importsThroughLoader()] });
await bundle.close();

// An ES module per shared module, re-exporting (under every name it has) what the script exports.
const script = createRequire(import.meta.url)(new URL('run.cjs', out).pathname);
for (const [specifier, file] of Object.entries(SHARED_MODULES)) {
  const names = Object.keys(script.shared[specifier]);
  const lines = [
    `// ${specifier} as the run bundle holds it (scripts/bundle-run.mjs): a plugin gets the engine's own copy.`,
    `const shared = globalThis[Symbol.for('netbench.run-bundle')]?.[${JSON.stringify(specifier)}];`,
    `if (shared === undefined) throw new Error(${JSON.stringify(`${file}: the netbench run bundle is not loaded (src/run-bundle.ts loads it first)`)});`,
    ...names.map((name, i) => `const e${i} = shared[${JSON.stringify(name)}];`),
    `export { ${names.map((name, i) => `e${i} as ${JSON.stringify(name)}`).join(', ')} };`,
  ];
  await writeFile(new URL(file, out), `${lines.join('\n')}\n`);
}
console.log(`${out.pathname}run.cjs: the run path in one script, and ${Object.keys(SHARED_MODULES).length} shared modules`);

/**
 * `import(x)` in the script becomes `__netbenchImport(x)`, a parameter the
 * loader passes (src/run-bundle.ts: an ES module's own `import`). A classic
 * script run through `vm` may only use `import()` with an experimental
 * option that prints a warning. Found by parsing the output, so an
 * `import(` inside a string (the plugin probe's script) or a comment stays.
 */
function importsThroughLoader() {
  return {
    name: 'netbench-imports-through-loader',
    renderChunk(code) {
      const at = [];
      const walk = (node) => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (!node || typeof node !== 'object') return;
        if (node.type === 'ImportExpression') at.push(node.start);
        for (const key of Object.keys(node)) if (key !== 'parent') walk(node[key]);
      };
      walk(parseAst(code));
      let text = code;
      for (const start of at.sort((a, b) => b - a)) {
        if (text.slice(start, start + 6) !== 'import') throw new Error(`bundle-run: no import( at ${start}`);
        text = `${text.slice(0, start)}__netbenchImport${text.slice(start + 6)}`;
      }
      return { code: text, map: null };
    },
  };
}

/** The script's entry: `fastRun`, and every module it shares with plugins, whole (plugins may use any export). */
function runBundleEntry(id) {
  return {
    name: 'netbench-run-bundle-entry',
    resolveId: (source) => (source === id ? id : null),
    load(loading) {
      if (loading !== id) return null;
      const specifiers = Object.keys(SHARED_MODULES);
      return [
        `export { fastRun } from ${JSON.stringify(new URL('fast-run.js', dist).pathname)};`,
        ...specifiers.map((specifier, i) => `import * as m${i} from ${JSON.stringify(fileURLToPath(import.meta.resolve(specifier)))};`),
        `export const shared = { ${specifiers.map((specifier, i) => `${JSON.stringify(specifier)}: m${i}`).join(', ')} };`,
      ].join('\n');
    },
  };
}

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
