// A real sshd on 127.0.0.1 for the transport's tests: its own keys, config
// and port, started detached in its own process group and stopped with it.
import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestSshd {
  readonly dir: string;
  readonly port: number;
  readonly user: string;
  /** Client key without passphrase, authorised for root. */
  readonly clientKey: string;
  /** `[127.0.0.1]:port ssh-ed25519 ...` */
  readonly knownHosts: string;
  /** The host's public key line (`ssh-ed25519 AAAA... comment`). */
  readonly hostKeyLine: string;
  /** Accepted logins so far (sshd's log), to count connections. */
  acceptedLogins(): number;
  log(): string;
  /** Client connections sshd is serving now (its per-connection processes). */
  liveConnections(): number;
  /** Kill the per-connection sshd processes (not the listener): every client connection drops, as in a network failure. */
  dropConnections(): void;
  stop(): Promise<void>;
}

/** Pids whose parent is `parent` (from /proc). */
function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
}

export async function keygen(path: string, passphrase = ''): Promise<void> {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', 'netbench-test', '-f', path]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startTestSshd(options: { maxSessions?: number; extraKeys?: string[]; extraConfig?: string[] } = {}): Promise<TestSshd> {
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const dir = mkdtempSync(join(tmpdir(), `nbt-ssh-${process.pid}-`));
  const hostKey = join(dir, 'host_ed25519');
  const clientKey = join(dir, 'id_ed25519');
  await Promise.all([keygen(hostKey), keygen(clientKey)]);
  const authorized = join(dir, 'authorized_keys');
  writeFileSync(authorized, [readFileSync(`${clientKey}.pub`, 'utf8'), ...(options.extraKeys ?? [])].join(''), { mode: 0o600 });
  const port = await freePort();
  const hostKeyLine = readFileSync(`${hostKey}.pub`, 'utf8').trim();
  const [type, key] = hostKeyLine.split(' ');
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, `[127.0.0.1]:${port} ${type} ${key}\n`);
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
      'Subsystem sftp internal-sftp',
      `MaxSessions ${options.maxSessions ?? 10}`,
      'LogLevel INFO',
      ...(options.extraConfig ?? []),
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const logFile = join(dir, 'sshd.log');
  const fd = openSync(logFile, 'w');
  const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  child.unref();
  const log = () => readFileSync(logFile, 'utf8');
  const deadline = Date.now() + 10_000;
  while (!log().includes('Server listening')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`test sshd did not start: ${log()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    dir,
    port,
    user: 'root',
    clientKey,
    knownHosts,
    hostKeyLine,
    log,
    acceptedLogins: () =>
      log()
        .split('\n')
        .filter((line) => line.includes('Accepted publickey')).length,
    liveConnections: () => childrenOf(child.pid!).length,
    dropConnections() {
      for (const pid of childrenOf(child.pid!)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    },
    async stop() {
      // The group holds the listener and the per-connection sshd processes.
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* gone */
      }
      await new Promise((r) => setTimeout(r, 100));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
