import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { namespacesOf } from './helpers/leftovers.js';

// Each folder under scenarios/bad-input holds a broken spec.yaml and the
// exit code and stderr patterns that `netbench run` must produce for it.
const root = join(import.meta.dirname, 'scenarios/bad-input');
const cases = readdirSync(root).sort();

describe('bad input is reported clearly and nothing is created', () => {
  it.each(cases)('%s', async (name) => {
    const expected = JSON.parse(readFileSync(join(root, name, 'expected.json'), 'utf8')) as { exitCode: number; stderr: string[] };
    const home = tempHome();
    const before = namespacesOf();
    const result = await runCli(['run', 'spec.yaml', '--runs-dir', join(home, 'runs')], {
      cwd: join(root, name),
      env: { NETBENCH_HOME: home },
    });
    expect(result.code, result.stderr).toBe(expected.exitCode);
    for (const pattern of expected.stderr) expect(result.stderr).toMatch(new RegExp(pattern));
    expect(result.stderr).not.toMatch(/\n\s+at .*\.js:\d+/); // a message, not a stack trace
    expect(existsSync(join(home, 'runs')) ? readdirSync(join(home, 'runs')) : []).toEqual([]);
    expect(namespacesOf()).toEqual(before);
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
