#!/usr/bin/env node
// Type-check the test files too. Each package's tsconfig leaves its tests out
// of the build (they are not shipped) and vitest runs them without checking
// types, so a test could call an API wrongly and still pass. This compiles
// every package's src, tests included, as one program with the shared
// settings and no output (the renderer's tests are checked by its own config,
// which already includes them). The config lives under node_modules/.cache so
// type roots resolve as they do for the packages.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'node_modules', '.cache', 'netbench-typecheck');
mkdirSync(cache, { recursive: true });
const base = { noEmit: true, composite: false, incremental: false, declaration: false, declarationMap: false, sourceMap: false, rootDir: root };
const projects = [
  // Node code and its unit tests: no DOM types, so a browser global in Node code is an error.
  { name: 'packages', include: ['packages/*/src', 'packages/plugins/*/src', 'examples/plugins/*/src'], exclude: ['packages/desktop/src/renderer'], lib: undefined },
  // End-to-end tests and benches drive Chromium: their page callbacks use the DOM.
  { name: 'tests and benches', include: ['tests', 'bench'], exclude: [], lib: ['es2023', 'dom', 'dom.iterable'] },
].map(({ name, include, exclude, lib }) => {
  const file = join(cache, `${name.replaceAll(' ', '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        extends: join(root, 'tsconfig.base.json'),
        compilerOptions: { ...base, ...(lib ? { lib } : {}) },
        include: include.map((glob) => join(root, glob)),
        exclude: [...exclude, '**/__fixtures__/**/*.mjs'].map((glob) => join(root, glob)),
      },
      null,
      2,
    ),
  );
  return { name, file };
});
projects.push({ name: 'desktop renderer', file: join(root, 'packages/desktop/tsconfig.renderer.json') });

const tsc = join(root, 'node_modules', '.bin', 'tsc');
let failed = false;
for (const { name, file } of projects) {
  const result = spawnSync(tsc, ['-p', file, '--pretty', 'false'], { encoding: 'utf8', cwd: root });
  if (result.status !== 0) {
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    console.error(`type errors in ${name}`);
    failed = true;
  }
}
if (failed) process.exit(1);
console.log('sources and tests of every package type-check');
