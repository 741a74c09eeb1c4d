import { execFileSync } from 'node:child_process';
import { accessSync, chmodSync, constants, copyFileSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempHome } from './helpers/cli.js';
import { namespacesIn, toolProcessesIn } from './helpers/leftovers.js';
import { openSandbox, type Sandbox } from './helpers/sandbox.js';

const pingSpec = join(import.meta.dirname, 'scenarios/ping-netperf/spec.yaml');
const shapedSpec = join(repoRoot, 'examples/shaped-link.yaml');

/** A PATH holding every command netbench needs except the ones named. */
function pathWithout(missing: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'netbench-path-'));
  for (const name of ['ip', 'tc', 'ping', 'netperf', 'netserver', 'iperf3', 'ssh-keygen', 'sleep', 'kill', 'cat', 'sh']) {
    if (missing.includes(name)) continue;
    const found = execFileSync('sh', ['-c', 'command -v "$1"', 'sh', name], { encoding: 'utf8' }).trim();
    symlinkSync(found, join(dir, name));
  }
  return dir;
}

// Runs that must create nothing go inside a sandbox of their own: what is in it is all they made.
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await openSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

describe('the machine lacks something', () => {
  it('a missing tool binary stops the run before measuring, with a clear message, and tears down', async () => {
    const home = tempHome();
    const result = await runCli(['run', pingSpec, '--runs-dir', join(home, 'runs'), '--set', 'options.install=false'], {
      env: { NETBENCH_HOME: home, PATH: pathWithout(['netperf', 'netserver']) },
      wrapper: sandbox.wrapper,
    });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toMatch(/netperf is not installed on host (client|server)/);
    expect(namespacesIn(sandbox)).toEqual([]);
    expect(toolProcessesIn(sandbox)).toEqual([]);
  });

  it('without privileges, local hosts fall back to loopback with a warning and still measure', async () => {
    const { wrapper, node } = unprivileged();
    const home = tempHome();
    chmodSync(home, 0o777);
    const result = await runCli(['run', pingSpec, '--runs-dir', join(home, 'runs'), '--progress', 'plain'], { wrapper, node, env: { NETBENCH_HOME: home, HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/warning: .*run on 127\.0\.0\.1/);
    expect(result.stdout).toMatch(/TCP_RR/);
  });

  it("without privileges and NETBENCH_LOCAL_REQUIRE_NETNS=1 (a Kubernetes Job's pod), the loopback fallback is refused: exit 5, nothing measured", async () => {
    const { wrapper, node } = unprivileged();
    const home = tempHome();
    chmodSync(home, 0o777);
    const result = await runCli(['run', pingSpec, '--runs-dir', join(home, 'runs'), '--progress', 'plain'], {
      wrapper: [...sandbox.wrapper, ...wrapper],
      node,
      env: { NETBENCH_HOME: home, HOME: home, NETBENCH_LOCAL_REQUIRE_NETNS: '1' },
    });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toMatch(/NETBENCH_LOCAL_REQUIRE_NETNS=1 forbids falling back to 127\.0\.0\.1.*NET_ADMIN/);
    expect(result.stdout).not.toMatch(/TCP_RR .*ok/);
    expect(namespacesIn(sandbox)).toEqual([]);
  });

  it('without privileges, a shaped link is refused before anything is created', async () => {
    const { wrapper, node } = unprivileged();
    const home = tempHome();
    chmodSync(home, 0o777);
    const result = await runCli(['run', shapedSpec, '--runs-dir', join(home, 'runs')], {
      wrapper: [...sandbox.wrapper, ...wrapper],
      node,
      env: { NETBENCH_HOME: home, HOME: home },
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/link.*(root|CAP_NET_ADMIN)|(root|CAP_NET_ADMIN).*link/i);
    expect(namespacesIn(sandbox)).toEqual([]);
  });
});

/**
 * Run netbench as the unprivileged user `nobody` when the checkout is readable
 * by it; otherwise as root with CAP_NET_ADMIN and CAP_SYS_ADMIN dropped from
 * the bounding set — either way the process cannot build namespaces.
 */
function unprivileged(): { wrapper: string[]; node: string } {
  const nodeDir = mkdtempSync(join(tmpdir(), 'netbench-node-'));
  mkdirSync(nodeDir, { recursive: true });
  const node = join(nodeDir, 'node');
  copyFileSync(process.execPath, node);
  chmodSync(nodeDir, 0o755);
  chmodSync(node, 0o755);
  if (readableByNobody(repoRoot)) return { wrapper: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'], node };
  return { wrapper: ['setpriv', '--bounding-set=-net_admin,-sys_admin', '--inh-caps=-net_admin,-sys_admin', '--'], node };
}

function readableByNobody(path: string): boolean {
  try {
    execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', 'test', '-r', join(path, 'package.json')]);
    for (let dir = path; dir !== '/'; dir = dirname(dir)) accessSync(dir, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
