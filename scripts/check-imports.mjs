#!/usr/bin/env node
// The import rules of docs/architecture.md, checked in CI: dependency-cruiser
// enforces the layers between packages and refuses module cycles
// (.dependency-cruiser.cjs); this script adds the folder rule — within a
// package, the folders of src/ (spec, plan, engine, store, ...) import each
// other in one direction only — from the same tool's output.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin', 'depcruise');
const run = spawnSync(bin, ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'packages'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
if (run.error) throw run.error;
const result = JSON.parse(run.stdout);

let failed = false;
for (const v of result.summary.violations) {
  failed = true;
  console.error(`${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name ?? c).join(' → ')})` : ''}`);
}

// Folder graph per package: packages/<pkg>/src/<folder>/… (files directly in src/ are the entry, not a folder).
const TEST_RE = /\.test\.ts$|\.test-d\.ts$|\/test-support\/|\/__fixtures__\//;
const folderOf = (path) => /^(packages\/(?:plugins\/)?[^/]+\/src)\/([^/]+)\/.+/.exec(path);
const edges = new Map();
for (const module of result.modules) {
  const from = folderOf(module.source);
  if (!from || TEST_RE.test(module.source)) continue;
  for (const dep of module.dependencies) {
    const to = folderOf(dep.resolved);
    if (!to || to[1] !== from[1] || to[2] === from[2] || TEST_RE.test(dep.resolved)) continue;
    const a = `${from[1]}/${from[2]}`;
    const b = `${to[1]}/${to[2]}`;
    if (!edges.has(a)) edges.set(a, new Map());
    if (!edges.get(a).has(b)) edges.get(a).set(b, `${module.source} → ${dep.resolved}`);
  }
}
// Tarjan's strongly connected components: any with two or more folders is a cycle.
let index = 0;
const stack = [];
const meta = new Map();
const cycles = [];
function visit(v) {
  meta.set(v, { index, low: index, on: true });
  index += 1;
  stack.push(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!meta.has(w)) {
      visit(w);
      meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
    } else if (meta.get(w).on) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
  }
  if (meta.get(v).low === meta.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      meta.get(w).on = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component);
  }
}
for (const v of edges.keys()) if (!meta.has(v)) visit(v);
for (const component of cycles) {
  failed = true;
  console.error(`folder cycle: ${component.join(' ⇄ ')}`);
  for (const a of component) for (const [b, why] of edges.get(a) ?? []) if (component.includes(b)) console.error(`  ${why}`);
}
if (failed) process.exit(1);
console.log(`imports follow the layers: ${result.summary.totalCruised} modules, no module or folder cycle`);
