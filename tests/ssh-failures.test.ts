import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_ARGS } from '../packages/core/src/transport/ssh/test-support/hostile-args.js';
import { repoRoot } from './helpers/cli.js';
import { onlyRunDir, readEvents, readResults } from './helpers/results.js';
import { removeRunHomes, runHome, type SshLab, startSshLab } from './helpers/ssh-lab.js';

const PAIR = 'tests/scenarios/ssh/pair/spec.yaml';
const PASSPHRASE = 'e2e passphrase; $(not run)';
const MARKER = '/tmp/nb-pwned';

/** Every file of a run folder as one string, to look for secrets. */
function everything(runDir: string): string {
  return readdirSync(runDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe('static hosts: what goes wrong is refused clearly, bounded, leaving nothing', () => {
  let lab: SshLab;
  let lockedKey: string;
  const run = async (sets: string[], env: Record<string, string> = {}) => {
    const { home, runsDir } = runHome();
    const began = Date.now();
    const result = await lab.cli(['run', PAIR, '--runs-dir', runsDir, '--progress', 'plain', ...lab.sets('client', 'a'), ...lab.sets('server', 'b'), ...sets], {
      env: { NETBENCH_HOME: home, SSH_AUTH_SOCK: '', ...env },
    });
    return { ...result, ms: Date.now() - began, runDir: onlyRunDir(runsDir) };
  };

  beforeAll(async () => {
    rmSync(MARKER, { force: true });
    lab = await startSshLab({ controller: {}, a: { sshd: true }, b: { sshd: true } });
    lockedKey = join(lab.runDir, 'locked_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', PASSPHRASE, '-C', 'e2e-locked', '-f', lockedKey]);
    lab.authorize('b', readFileSync(`${lockedKey}.pub`, 'utf8'));
  });

  afterAll(async () => {
    removeRunHomes();
    expect(await lab?.teardown()).toEqual([]);
    rmSync(MARKER, { force: true });
  });

  it('a wrong host key: refused before anything runs, with the offered fingerprint and what to do (exit 5)', async () => {
    const wrong = join(lab.runDir, 'wrong_known_hosts');
    writeFileSync(wrong, `${lab.hosts.b!.internalIp} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC8QfOxZACkeF51GXjleRZ7G9iDp0bWhW2ZHTTZz9dh0\n`);
    const real = execFileSync('ssh-keygen', ['-lf', lab.hosts.b!.labels.ssh_known_hosts!], { encoding: 'utf8' }).split(' ')[1]!;
    const loginsA = lab.acceptedLogins('a');
    const result = await run(['--set', `hosts.server.knownHosts=${wrong}`]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('HOST KEY MISMATCH');
    expect(result.stderr).toContain(`offered ssh-ed25519 ${real}`);
    expect(result.stderr).toContain(`ssh-keygen -R '${lab.hosts.b!.internalIp}'`);
    expect(lab.acceptedLogins('b')).toBe(0);
    // The host that did connect was closed again, with nothing left running on it.
    expect(lab.acceptedLogins('a')).toBe(loginsA + 1);
    const { run: record } = readResults(result.runDir);
    expect(record.status).toBe('failed');
    expect(record.trials.every((t) => t.status !== 'succeeded')).toBe(true);
    expect(readEvents(result.runDir).at(-1)).toMatchObject({ type: 'run-finished', teardownErrors: 0 });
    expect(lab.strayProcesses('a')).toEqual([]);
    expect(lab.strayProcesses('b')).toEqual([]);
  });

  it('an address nobody answers on: reported after the configured attempts, without hanging (exit 5)', async () => {
    const silent = lab.hosts.b!.internalIp.replace(/\d+$/, '200');
    const result = await run([
      '--set',
      `hosts.server.address=${silent}`,
      '--set',
      'hosts.server.connectTimeout=1',
      '--set',
      'hosts.server.connectRetry={attempts: 2, initialDelayMs: 100}',
    ]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(new RegExp(`host server \\(${silent.replaceAll('.', '\\.')}:22\\) unreachable after 2 attempts over \\d+\\.\\d s`));
    expect(result.ms).toBeLessThan(30_000);
  });

  it('a port nothing listens on: refused at once, retried, reported (exit 5)', async () => {
    const result = await run(['--set', 'hosts.server.port=2222', '--set', 'hosts.server.connectRetry={attempts: 3, initialDelayMs: 100}']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/host server \(\S+:2222\) unreachable after 3 attempts over \d+\.\d s: .*ECONNREFUSED/);
  });

  it('a passphrase-protected key works with passphraseEnv; the passphrase is nowhere in the run folder', async () => {
    const result = await run(['--set', `hosts.server.key=${lockedKey}`, '--set', 'hosts.server.passphraseEnv=NBT_E2E_PASSPHRASE'], { NBT_E2E_PASSPHRASE: PASSPHRASE });
    expect(result.code, result.stderr).toBe(0);
    expect(readResults(result.runDir).run.status).toBe('succeeded');
    expect(everything(result.runDir)).not.toContain(PASSPHRASE);
    expect(result.stdout + result.stderr).not.toContain(PASSPHRASE);
  });

  it('a wrong passphrase is named as such, and not printed (exit 5)', async () => {
    const result = await run(['--set', `hosts.server.key=${lockedKey}`, '--set', 'hosts.server.passphraseEnv=NBT_E2E_PASSPHRASE'], { NBT_E2E_PASSPHRASE: `${PASSPHRASE}x` });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/wrong passphrase for private key \S*locked_ed25519/);
    expect(everything(result.runDir) + result.stdout + result.stderr).not.toContain(PASSPHRASE);
  });

  it('argument values with shell syntax arrive verbatim as one argument each and run nothing', () => {
    const a = lab.hosts.a!;
    const options = {
      id: 'a',
      name: 'a',
      cloud: 'static',
      internalIp: a.internalIp,
      address: a.internalIp,
      user: 'root',
      privateKeyPath: a.labels.ssh_key,
      hostKey: { mode: 'known-hosts', file: a.labels.ssh_known_hosts },
    };
    const out = execFileSync(
      'ip',
      ['netns', 'exec', lab.netns('controller'), process.execPath, join(repoRoot, 'tests/helpers/ssh-probe.mjs'), 'argv', JSON.stringify(options), JSON.stringify(HOSTILE_ARGS)],
      { encoding: 'utf8' },
    );
    const seen = JSON.parse(out) as { code: number; args: string[]; stderr: string };
    expect(seen).toMatchObject({ code: 0, stderr: '' });
    expect(seen.args).toEqual(HOSTILE_ARGS);
    expect(existsSync(MARKER)).toBe(false);
  });
});
