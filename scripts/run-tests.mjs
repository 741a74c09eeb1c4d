#!/usr/bin/env node
// `npm test`: the build, the type and import checks, the unit and type tests,
// then the end-to-end tests (the serial group, then the parallel group), one
// after another (the first failure stops it);
// each step's wall time is printed as it ends, and a table at the end, so a
// slow CI run says where its time went.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

// .ci/run sets this: each step's time is added to its file, for the table of the whole CI run.
const stepLog = process.env.NETBENCH_STEP_LOG;

// Biome's formatter over the tree (`npm run format` writes it); npm test fails on an unformatted file.
const CHECK_FORMAT = true;

// scripts/setup.sh has just built (CI): skip a second build when no input changed since (scripts/build-stamp.mjs).
const built = spawnSync(process.execPath, ['scripts/build-stamp.mjs', 'check']).status === 0;
if (built) console.error('test step: build: skipped, dist is current (scripts/build-stamp.mjs)');

const steps = [
  ...(built ? [] : [['build', 'npm', ['run', 'build']]]),
  ['typecheck tests', process.execPath, ['scripts/typecheck-tests.mjs']],
  ['check imports', process.execPath, ['scripts/check-imports.mjs']],
  ['lint', 'npx', ['biome', 'lint', '.']],
  ['sdk api reference', process.execPath, ['scripts/sdk-api.mjs', '--check']],
  ...(CHECK_FORMAT ? [['format check', 'npx', ['biome', 'check', '--linter-enabled=false', '.']]] : []),
  ['unit + types', 'npx', ['vitest', 'run', '--project', 'unit', '--project', 'types']],
  // The files that need the machine alone first, one at a time; then the rest two at a time (vitest.config.ts).
  ['e2e serial', 'npx', ['vitest', 'run', '--project', 'e2e-serial']],
  ['e2e parallel', 'npx', ['vitest', 'run', '--project', 'e2e']],
  // scripts/test.sh builds oha meanwhile and names the file its build's exit code lands in.
  ...(process.env.NETBENCH_OHA_PENDING ? [['waiting for oha', waitForOha]] : []),
  ['e2e oha', 'npx', ['vitest', 'run', '--project', 'e2e-oha']],
];
const times = [];
let code = 0;
for (const [name, command, args] of steps) {
  const started = Date.now();
  const result = typeof command === 'function' ? command() : spawnSync(command, args, { stdio: 'inherit' });
  const seconds = Math.round((Date.now() - started) / 1000);
  times.push([name, seconds, result.status]);
  if (stepLog) appendFileSync(stepLog, `test: ${name}\t${seconds}\n`);
  console.error(`test step: ${name}: ${seconds} s${result.status === 0 ? '' : ` (failed, exit ${result.status ?? result.signal})`}`);
  if (result.status !== 0) {
    code = result.status ?? 1;
    break;
  }
}
const total = times.reduce((sum, [, seconds]) => sum + seconds, 0);
console.error(
  `test steps:\n${[...times, ['total', total, 0]].map(([name, seconds, status]) => `  ${name.padEnd(16)} ${String(seconds).padStart(5)} s${status === 0 ? '' : '  failed'}`).join('\n')}`,
);
process.exit(code);

/** Until the oha build scripts/test.sh started has ended (at most an hour). A failed build only warns: the oha tests then say what is missing. */
function waitForOha() {
  const file = process.env.NETBENCH_OHA_PENDING;
  const until = Date.now() + 3_600_000;
  while (!existsSync(file) && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000);
  const rc = existsSync(file) ? readFileSync(file, 'utf8').trim() : 'timeout';
  if (rc !== '0') console.error(`test step: waiting for oha: its build did not succeed (${rc}); the oha tests will say it is missing`);
  return { status: 0 };
}
