import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..');
export const cliBin = join(repoRoot, 'packages/cli/bin/run.js');

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Run the CLI; returns wall milliseconds and output. */
export function cli(args, env = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [cliBin, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`netbench ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout, stderr: result.stderr };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function line(label, value, goal) {
  console.log(`  ${label.padEnd(52)} ${value.padStart(12)}${goal ? `   (goal ${goal})` : ''}`);
}
