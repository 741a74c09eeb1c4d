// A real sshd on 127.0.0.1 standing in for a cloud's new VM in a plugin's tests:
// its own host key (which the fake cloud API prints on the "serial console"),
// the run's login key authorised.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { closedPort } from './closed-port.js';

const run = promisify(execFile);

export interface LabSshd {
  readonly port: number;
  /** `ssh-ed25519 AAAA... comment` */
  readonly hostKeyLine: string;
  stop(): Promise<void>;
}

/** A new key pair at `path` (no passphrase); returns its public key line. */
export async function keygen(path: string, type = 'ed25519'): Promise<string> {
  await run('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', 'netbench-test', '-f', path]);
  return readFileSync(`${path}.pub`, 'utf8').trim();
}

export interface LabSshdOptions {
  /**
   * Run every command of a session inside this network namespace
   * (`ForceCommand ip netns exec NETNS /bin/sh -c "$SSH_ORIGINAL_COMMAND"`, root logins):
   * the VM's own network stack, so a test may change per-namespace settings
   * such as net.ipv4.tcp_congestion_control without touching this machine's.
   */
  readonly netns?: string;
}

/** sshd on a free 127.0.0.1 port with a new host key, letting in `authorizedKey`; files under `dir`. */
export async function startSshd(dir: string, authorizedKey: string, options: LabSshdOptions = {}): Promise<LabSshd> {
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const hostKey = join(dir, 'host_ed25519');
  const hostKeyLine = await keygen(hostKey);
  const authorized = join(dir, 'authorized_keys');
  writeFileSync(authorized, `${authorizedKey}\n`, { mode: 0o600 });
  const port = await closedPort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      'ListenAddress 127.0.0.1',
      `Port ${port}`,
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'UsePAM no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      `AuthorizedKeysFile ${authorized}`,
      'StrictModes no',
      'UseDNS no',
      'LogLevel ERROR',
      // The namespace name is the test's own; sshd hands the line to the login shell, which expands the variable.
      ...(options.netns !== undefined ? [`ForceCommand ip netns exec ${options.netns} /bin/sh -c "$SSH_ORIGINAL_COMMAND"`] : []),
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const child: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { stdio: 'ignore' });
  // Ready when the port accepts connections.
  for (let i = 0; i < 100; i += 1) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    hostKeyLine,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
