// The image recipe of the Kubernetes Indexed Job (scripts/netbench-image.sh,
// docs/long-studies.md), checked without building it: building takes
// mmdebstrap's Debian root file system, a production `npm ci` and a running
// dockerd (minutes; no image can be pulled here), so the build itself runs
// only when asked (NETBENCH_IMAGE_TEST=1, with dockerd up: below). What is checked
// always: the script parses, its image is the Job's default, its Debian
// packages exist in this machine's apt index, every command the built-in
// tools and the local lab run comes from one of them, and the entrypoint it
// writes points at a file the checkout has.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { shardJobManifest } from '../packages/core/src/api/k8s-job.js';
import { repoRoot } from './helpers/cli.js';

const SCRIPT = 'scripts/netbench-image.sh';
const text = readFileSync(SCRIPT, 'utf8');

/** The bash array `PACKAGES=(…)` of the script. */
function packagesOf(script: string): string[] {
  const match = /^PACKAGES=\(([^)]*)\)/m.exec(script);
  if (!match) throw new Error(`${SCRIPT}: no PACKAGES=(…) line`);
  return match[1]!.trim().split(/\s+/);
}

const defaultImageOf = (script: string): string | undefined => /^IMAGE="\$\{IMAGE:-([^}]+)\}"/m.exec(script)?.[1];

/** Commands the built-in tool plugins and the local lab run on a host. */
const COMMANDS = ['ping', 'netperf', 'netserver', 'iperf3', 'iperf', 'fping', 'irtt', 'ip', 'tc', 'ps'];

describe('the netbench image recipe (scripts/netbench-image.sh)', () => {
  it('is valid bash', () => {
    const result = spawnSync('bash', ['-n', SCRIPT], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('builds the image the emitted Job runs when --image does not say', () => {
    const manifest = shardJobManifest({ name: 'lab', specText: 'name: lab\n', count: 2, study: 's1' });
    const job = parseAllDocuments(manifest)
      .map((doc) => doc.toJS())
      .find((doc) => doc.kind === 'Job');
    expect(job.spec.template.spec.containers[0].image).toBe(defaultImageOf(text));
  });

  it('names Debian packages that exist, providing every command the tools and the local lab run', () => {
    const packages = packagesOf(text);
    for (const name of packages) {
      const shown = spawnSync('apt-cache', ['show', '--no-all-versions', name], { encoding: 'utf8' });
      expect(shown.stdout, `apt-cache show ${name}`).toMatch(new RegExp(`^Package: ${name}$`, 'm'));
    }
    // The package that provides each command on this (Debian) machine is one the image installs.
    for (const command of COMMANDS) {
      const path = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', command], { encoding: 'utf8' }).stdout.trim();
      expect(path, `${command} is installed here (the tests run it)`).not.toBe('');
      const real = execFileSync('realpath', [path], { encoding: 'utf8' }).trim();
      // usrmerge: dpkg may have the file as /bin/… while it is found as /usr/bin/….
      const owner = [real, real.replace(/^\/usr\//, '/')].map((file) => spawnSync('dpkg', ['-S', file], { encoding: 'utf8' })).find((r) => r.status === 0);
      const owners = (owner?.stdout ?? '')
        .split(':')[0]!
        .split(',')
        .map((p) => p.trim());
      expect(
        owners.some((p) => packages.includes(p)),
        `${command} (${owners.join(', ')}) is in the image's packages ${packages.join(' ')}`,
      ).toBe(true);
    }
  });

  it("runs this checkout's CLI entry point, copied with each workspace's bin folder", () => {
    const entry = /exec \/opt\/node24\/bin\/node \/opt\/netbench\/(\S+) "\$@"/.exec(text)?.[1];
    expect(entry).toBe('packages/cli/bin/run.js');
    expect(existsSync(entry!)).toBe(true);
    expect(text).toMatch(/for part in dist bin; do/);
    expect(text).toMatch(/--change 'ENTRYPOINT \["\/usr\/local\/bin\/netbench"\]'/);
  });
});

// The build itself, run as the Job's pods run the image (opt-in: ~2 min, ~0.8 GB).
const wanted = process.env.NETBENCH_IMAGE_TEST === '1';
const docker = spawnSync('docker', ['info'], { encoding: 'utf8' }).status === 0;
const IMAGE = 'netbench-test:image-test';
const run = (args: string[]) => spawnSync('docker', ['run', '--rm', ...args], { encoding: 'utf8', timeout: 300_000 });

describe.skipIf(!wanted || !docker)('the netbench image (scripts/netbench-image.sh)', () => {
  it('builds, runs `netbench` as its entrypoint, refuses a loopback lab without capabilities and runs one with them', () => {
    const built = spawnSync(join(repoRoot, SCRIPT), [], { cwd: repoRoot, env: { ...process.env, IMAGE }, encoding: 'utf8', timeout: 900_000 });
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
