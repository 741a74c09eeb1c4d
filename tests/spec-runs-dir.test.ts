// A spec's options.runsDir is where a root run writes: not through a link, not
// into another user's folder, and a folder it creates is owner-only.
import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { otherUser } from './helpers/other-user.js';

const root = process.getuid?.() === 0;

// Root only: the case is a root run of a spec whose runsDir leads to another user's folder.
describe.skipIf(!root)("a spec's options.runsDir", () => {
  let base: string;
  let theirs: string;
  let home: string;
  beforeAll(() => {
    const other = otherUser();
    base = mkdtempSync(join(tmpdir(), 'nbt-runs-dir-'));
    home = tempHome();
    theirs = join(base, 'theirs');
    mkdirSync(theirs, { mode: 0o755 });
    chownSync(theirs, other.uid, other.gid);
    symlinkSync(theirs, join(base, 'link'));
  });
  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  const spec = (runsDir: string) => {
    const file = join(base, `spec-${runsDir.replace(/\W/g, '')}.yaml`);
    writeFileSync(
      file,
      [
        'name: runs-dir',
        'hosts:',
        '  client: { cloud: local }',
        '  server: { cloud: local }',
        'benchmarks:',
        '  - { tool: ping, client: client, server: server, count: 2, interval: 0.2 }',
        'options:',
        `  runsDir: ${runsDir}`,
        '',
      ].join('\n'),
    );
    return file;
  };

  it("refuses a link and another user's folder before anything is made", async () => {
    const linked = await runCli(['run', spec('./link')], { env: { NETBENCH_HOME: home } });
    expect(linked.code).not.toBe(0);
    expect(linked.stderr).toMatch(/options\.runsDir .*link: is a symbolic link/);
    const foreign = await runCli(['run', spec('./theirs')], { env: { NETBENCH_HOME: home } });
    expect(foreign.code).not.toBe(0);
    expect(foreign.stderr).toMatch(/options\.runsDir .*theirs: belongs to uid \d+, not to the user running netbench/);
    expect(readdirSync(theirs)).toEqual([]);
  });

  it('creates a new one 0700 and runs in it', async () => {
    const run = await runCli(['run', spec('./mine')], { env: { NETBENCH_HOME: home } });
    expect(run.code).toBe(0);
    expect(statSync(join(base, 'mine')).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(base, 'mine'))).toHaveLength(1);
  });
});
