import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { namespacesIn } from './helpers/leftovers.js';
import { openSandbox, type Sandbox } from './helpers/sandbox.js';

// Each folder under scenarios/bad-input holds a broken spec.yaml and the
// exit code and stderr patterns that `netbench run` must produce for it.
const root = join(import.meta.dirname, 'scenarios/bad-input');
const cases = readdirSync(root).sort();
// The runs go inside a sandbox of their own: "nothing is created" is then every namespace in it, none of other runs on the machine.
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await openSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

describe('bad input is reported clearly and nothing is created', () => {
  it.each(cases)('%s', async (name) => {
    const expected = JSON.parse(readFileSync(join(root, name, 'expected.json'), 'utf8')) as { exitCode: number; stderr: string[] };
    const home = tempHome();
    const result = await runCli(['run', 'spec.yaml', '--runs-dir', join(home, 'runs')], {
      cwd: join(root, name),
      env: { NETBENCH_HOME: home },
      wrapper: sandbox.wrapperIn(join(root, name)),
    });
    expect(result.code, result.stderr).toBe(expected.exitCode);
    for (const pattern of expected.stderr) expect(result.stderr).toMatch(new RegExp(pattern));
    expect(result.stderr).not.toMatch(/\n\s+at .*\.js:\d+/); // a message, not a stack trace
    expect(existsSync(join(home, 'runs')) ? readdirSync(join(home, 'runs')) : []).toEqual([]);
    expect(namespacesIn(sandbox)).toEqual([]);
  });

  it('validate reports the same problems with --json', async () => {
    const result = await runCli(['validate', 'spec.yaml', '--json'], { cwd: join(root, 'several-problems') });
    expect(result.code).toBe(2);
    const body = JSON.parse(result.stdout) as { error: { issues: { line: number; col: number; path: string }[] } };
    expect(body.error.issues.length).toBeGreaterThanOrEqual(4);
    expect(body.error.issues.map((i) => i.path)).toContain('benchmarks.0.server');
  });

  it('a spec file that does not exist is named', async () => {
    const result = await runCli(['validate', 'no-such-spec.yaml']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/no-such-spec\.yaml/);
  });
});
