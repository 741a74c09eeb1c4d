// `netbench hosts trust` as a user runs it, against the lab's real sshd: the
// prompt shows ssh-keygen's fingerprint and only "y" records the key; scripts
// pass --yes --fingerprint, which must match.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keygen, type LabSshd, startSshd } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, cliBin, runCli } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'nbt-hosts-trust-'));
let sshd: LabSshd;
let fingerprint: string;

/** The CLI with `answer` typed on its standard input. */
function withAnswer(args: readonly string[], answer: string): Promise<CliResult> {
  const child = spawn(process.execPath, [cliBin, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  child.stdin.end(answer);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

beforeAll(async () => {
  sshd = await startSshd(dir, await keygen(join(dir, 'login')));
  fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', join(dir, 'host_ed25519.pub')], { encoding: 'utf8' }).split(/\s+/)[1]!;
});
afterAll(async () => {
  await sshd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('netbench hosts trust', () => {
  it('asks with the fingerprint; "n" records nothing (exit 1), "y" records it in a folder it creates', async () => {
    const file = join(dir, 'home', '.ssh', 'known_hosts');
    const args = ['hosts', 'trust', '127.0.0.1', '--port', String(sshd.port), '--known-hosts', file];
    const no = await withAnswer(args, 'n\n');
    expect(no.stderr).toContain(`127.0.0.1 port ${sshd.port} offers ssh-ed25519 key ${fingerprint}`);
    expect(no.stderr).toContain(`Record it in ${file}? [y/N]`);
    expect(no.code).toBe(1);
    expect(existsSync(file)).toBe(false);
    const yes = await withAnswer(args, 'y\n');
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain(`recorded 127.0.0.1:${sshd.port} ssh-ed25519 ${fingerprint} in ${file}`);
    expect(readFileSync(file, 'utf8')).toBe(`[127.0.0.1]:${sshd.port} ${sshd.hostKeyLine.split(' ').slice(0, 2).join(' ')}\n`);
  }, 60_000);

  it('--yes needs --fingerprint, which must match; --json gives the result', async () => {
    const file = join(dir, 'scripted', 'known_hosts');
    const base = ['hosts', 'trust', '127.0.0.1', '--port', String(sshd.port), '--known-hosts', file];
    const bare = await runCli([...base, '--yes']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/fingerprint/);
    const wrong = await runCli([...base, '--yes', '--fingerprint', 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`offers ssh-ed25519 ${fingerprint}, not the SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA you gave: nothing recorded`);
    expect(existsSync(file)).toBe(false);
    const right = await runCli([...base, '--yes', '--fingerprint', fingerprint, '--json']);
    expect(right.code).toBe(0);
    expect(JSON.parse(right.stdout)).toMatchObject({ status: 'recorded', fingerprint, keyType: 'ssh-ed25519', file, port: sshd.port });
    expect(JSON.parse((await runCli([...base, '--yes', '--fingerprint', fingerprint, '--json'])).stdout).status).toBe('already-trusted');
  }, 60_000);
});
