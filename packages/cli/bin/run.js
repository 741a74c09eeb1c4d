#!/usr/bin/env node
import { enableCompileCache } from 'node:module';
import { join, resolve } from 'node:path';
import { codeCacheDir } from '../dist/code-cache-dir.js';

// Node caches the compiled code of netbench and its dependencies on disk, so
// every command after the first starts faster. Only in netbench's private
// cache folder (never Node's default, the OS temp folder: an entry someone
// else planted there would run as this user); NETBENCH_CODE_CACHE=off: none.
const cacheDir = codeCacheDir();
if (cacheDir !== undefined) enableCompileCache?.(join(cacheDir, 'node'));
// A reader that stops early (`netbench schema | head -1`) closes the pipe: the
// output is no longer wanted, which is not a failure. Without this, the write
// error left the top-level await unsettled and Node exited 13 with a warning.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
// `run` is the command whose start-up time counts: it skips oclif's
// boot unless its arguments need oclif (help, a flag it cannot parse exactly),
// and loads its code from one bundle (scripts/bundle-run.mjs) when that is
// newer than every compiled package in it, else from dist as compiled.
// The bundle holds zod and plugin-api: plugins' imports of them are handed its copies.
const fast = process.argv[2] === 'run' && (await fastRun());
async function fastRun() {
  const { runEntry, shareBundledModules, loadRunBundle } = await import('../dist/run-entry.js');
  const entry = runEntry();
  if (!entry.pathname.endsWith('/bundle/run.cjs')) return (await import(entry.href)).fastRun;
  // A classic script with a code cache taken after a run (src/run-bundle.ts); plugins get its zod and plugin-api.
  // A code cache per spec file: runs of one spec call the same functions.
  const spec = process.argv.slice(3).find((arg) => /\.(ya?ml|json)$/i.test(arg));
  const { exports } = loadRunBundle(entry, { cacheDir, variant: spec === undefined ? '' : resolve(spec) });
  shareBundledModules(new URL('./', entry));
  return exports.fastRun;
}
if (!fast || !(await fast(process.argv.slice(3)))) {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}
