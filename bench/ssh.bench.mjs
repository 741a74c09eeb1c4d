import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliBin, line, median, repoRoot, tempDir } from './lib.mjs';

const { default: local, namespaceName } = await import(join(repoRoot, 'packages/plugins/local/dist/index.js'));

/**
 * The SSH path on the local lab: two namespaces with sshd and the tools
 * installed, used as `cloud: static` hosts by a CLI running in a third
 * (controller) namespace on the same bridge. Prints the time from "machines
 * running" (provision starts) to "first trial started", the connections each
 * host's sshd accepted (one each is the goal), and the per-command round trip.
 */
export default async function sshPath() {
  const lab = await startLab();
  // Every command starts the login shell on the host. root's here is bash with
  // a heavy ~/.bashrc (pyenv init), which sshd makes bash read: so the same is
  // also measured as a throw-away user whose login shell is plain /bin/sh, as
  // on a typical cloud image (whose ~/.bashrc returns early when not interactive).
  const plain = `nbtbench${process.pid % 100000}`;
  execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/', '--shell', '/bin/sh', plain]);
  execFileSync('usermod', ['-p', '*', plain]);
  try {
    lab.shareKeys();
    for (const [spec, what, user] of [
      ['tests/scenarios/ssh/pair/spec.yaml', 'ping only, as root', 'root'],
      ['tests/scenarios/ssh/tools/spec.yaml', 'ping + netperf + iperf3, as root', 'root'],
      ['tests/scenarios/ssh/pair/spec.yaml', 'ping only, plain login shell', plain],
      ['tests/scenarios/ssh/tools/spec.yaml', 'ping + netperf + iperf3, plain login shell', plain],
    ]) {
      const before = { a: lab.logins('a'), b: lab.logins('b') };
      const events = lab.run(spec, user);
      const at = (type, pick = () => true) => events.find((e) => e.type === type && pick(e))?.time;
      const start = at('phase-started', (e) => e.phase === 'provision');
      const first = at('trial-started');
      const provision = events.find((e) => e.type === 'phase-finished' && e.phase === 'provision')?.durationMs;
      const prepare = events.find((e) => e.type === 'phase-finished' && e.phase === 'prepare')?.durationMs;
      line(`${what}: machines running → first trial started`, `${((first - start) / 1000).toFixed(2)} s`, '≤ 2 s');
      line('  of which connect (provision) / tool checks and servers (prepare)', `${(provision / 1000).toFixed(2)} / ${(prepare / 1000).toFixed(2)} s`);
      line('  SSH connections accepted per host (a, b)', `${lab.logins('a') - before.a}, ${lab.logins('b') - before.b}`, '1, 1');
    }
    for (const user of ['root', plain]) {
      const rtt = lab.probeRtt(30, user);
      line(`per-command round trip, median of 30 (${user === 'root' ? 'root' : 'plain login shell'})`, `${median(rtt.rttMs).toFixed(1)} ms`);
      line('  connect (TCP, handshake, authentication)', `${rtt.connectMs.toFixed(0)} ms`);
    }
    line("  root's login shell alone on this machine (bash -c true, as sshd runs it)", `${lab.loginShellMs().toFixed(1)} ms`);
  } finally {
    try {
      execFileSync('userdel', [plain]);
    } catch {
      /* not created */
    }
    await lab.teardown();
  }
}

async function startLab() {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const runId = `${stamp}-b${Math.random().toString(36).slice(2, 7).padEnd(5, '0')}`;
  const runDir = mkdtempSync(join(tmpdir(), `netbench-bench-ssh-${runId}-`));
  const resources = [];
  const ledger = {
    entries: [],
    track: async (r, create) => {
      resources.push(r);
      return create();
    },
    created: async (r) => {
      resources.push(r);
    },
  };
  const ctx = { runId, runDir, signal: AbortSignal.timeout(120_000), log: { debug() {}, info() {}, warn() {} } };
  const requests = ['controller', 'a', 'b'].map((id) => ({ id, name: id, cloud: 'local', config: id === 'controller' ? {} : { sshd: true } }));
  const homes = [];
  const teardown = async () => {
    for (const r of [...resources].reverse()) await local.teardown(r, ctx).catch(() => {});
    for (const dir of [runDir, ...homes]) rmSync(dir, { recursive: true, force: true });
  };
  let hosts;
  try {
    hosts = Object.fromEntries((await local.provision(requests, { ...ctx, ledger })).map((h) => [h.id, h]));
  } catch (error) {
    await teardown();
    throw error;
  }
  const inController = (argv) => ['ip', 'netns', 'exec', namespaceName(runId, 'controller'), ...argv];
  const sets = (name, id) =>
    Object.entries({ address: hosts[id].internalIp, key: hosts[id].labels.ssh_key, knownHosts: hosts[id].labels.ssh_known_hosts }).flatMap(([field, value]) => [
      '--set',
      `hosts.${name}.${field}=${value}`,
    ]);
  return {
    teardown,
    logins: (id) =>
      readFileSync(join(runDir, 'local', id, 'sshd.log'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('Accepted publickey')).length,
    /** Let other users read the lab's authorized_keys (sshd reads it as the user logging in). */
    shareKeys() {
      chmodSync(runDir, 0o755);
      for (const id of ['a', 'b']) {
        chmodSync(join(runDir, 'local'), 0o755);
        chmodSync(join(runDir, 'local', id), 0o755);
        chmodSync(join(runDir, 'local', id, 'authorized_keys'), 0o644);
      }
    },
    run(spec, user) {
      const home = tempDir('netbench-bench-ssh-home-');
      homes.push(home);
      const [command, ...args] = inController([
        process.execPath,
        cliBin,
        'run',
        join(repoRoot, spec),
        '--runs-dir',
        join(home, 'runs'),
        '--progress',
        'none',
        ...sets('client', 'a'),
        ...sets('server', 'b'),
        '--set',
        `hosts.client.user=${user}`,
        '--set',
        `hosts.server.user=${user}`,
      ]);
      const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, NETBENCH_HOME: home, SSH_AUTH_SOCK: '' } });
      if (result.status !== 0) throw new Error(`netbench run ${spec} exited ${result.status}: ${result.stderr}`);
      const runDir = join(home, 'runs', readdirSync(join(home, 'runs'))[0]);
      return readFileSync(join(runDir, 'events.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    },
    probeRtt(count, user) {
      const a = hosts.a;
      const options = {
        id: 'a',
        name: 'a',
        cloud: 'static',
        internalIp: a.internalIp,
        address: a.internalIp,
        user,
        privateKeyPath: a.labels.ssh_key,
        hostKey: { mode: 'known-hosts', file: a.labels.ssh_known_hosts },
      };
      const [command, ...args] = inController([process.execPath, join(repoRoot, 'tests/helpers/ssh-probe.mjs'), 'rtt', JSON.stringify(options), String(count)]);
      return JSON.parse(execFileSync(command, args, { encoding: 'utf8' }));
    },
    loginShellMs() {
      // What sshd runs for every command: the user's shell with -c, as a login by SSH (bash then reads ~/.bashrc).
      const shell =
        readFileSync('/etc/passwd', 'utf8')
          .split('\n')
          .find((l) => l.startsWith('root:'))
          ?.split(':')[6] || '/bin/sh';
      const times = Array.from({ length: 10 }, () => {
        const t = performance.now();
        execFileSync(shell, ['-c', 'true'], { env: { HOME: '/root', SSH_CLIENT: '10.0.0.1 1 22', PATH: process.env.PATH } });
        return performance.now() - t;
      });
      return median(times);
    },
  };
}
