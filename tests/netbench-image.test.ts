// The image of the Kubernetes Indexed Job (scripts/netbench-image.sh): built
// here from Debian packages and this checkout (no registry), then run as a
// pod would run it. Opt-in (NETBENCH_IMAGE_TEST=1; ~2 min and ~0.8 GB), so
// CI's time goes to the rest; the closing note of the session that added it
// records a run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const wanted = process.env.NETBENCH_IMAGE_TEST === '1';
const docker = spawnSync('docker', ['info'], { encoding: 'utf8' }).status === 0;
const IMAGE = 'netbench-test:image-test';
const run = (args: string[]) => spawnSync('docker', ['run', '--rm', ...args], { encoding: 'utf8', timeout: 300_000 });

describe.skipIf(!wanted || !docker)('the netbench image (scripts/netbench-image.sh)', () => {
  it('builds, runs `netbench` as its entrypoint, refuses a loopback lab without capabilities and runs one with them', () => {
    const built = spawnSync(join(repoRoot, 'scripts/netbench-image.sh'), [], { cwd: repoRoot, env: { ...process.env, IMAGE }, encoding: 'utf8', timeout: 900_000 });
    expect(built.status, built.stderr).toBe(0);
    expect(run([IMAGE, '--version']).stdout).toMatch(/^@netbench\/cli\/\S+ linux-x64 node-v24\./);
    const examples = `${join(repoRoot, 'examples')}:/x:ro`;
    const quick = ['run', '/x/quickstart.yaml', '--set', 'benchmarks.0.count=10', '--set', 'benchmarks.1.duration=1', '--set', 'benchmarks.2.duration=1'];
    // As the Job's pods run it: NETBENCH_LOCAL_REQUIRE_NETNS=1.
    const bare = run(['-e', 'NETBENCH_LOCAL_REQUIRE_NETNS=1', '-v', examples, IMAGE, ...quick]);
    expect(bare.status).toBe(5);
    expect(bare.stderr).toMatch(/NETBENCH_LOCAL_REQUIRE_NETNS=1 forbids falling back to 127\.0\.0\.1/);
    const capable = run(['--cap-add', 'NET_ADMIN', '--cap-add', 'SYS_ADMIN', '-e', 'NETBENCH_LOCAL_REQUIRE_NETNS=1', '-v', examples, IMAGE, ...quick]);
    expect(capable.status, capable.stderr).toBe(0);
    expect(capable.stdout).toMatch(/run \S+ succeeded/);
    spawnSync('docker', ['image', 'rm', IMAGE], { encoding: 'utf8' });
  }, 1_200_000);
});
