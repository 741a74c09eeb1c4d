import { spawn } from 'node:child_process';
import { access, constants, mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mustRun, runCommand } from '@netbench/plugin-api/cloud-kit';
import { isSameProcessAlive, processState, terminate } from './processes.js';

export const SSHD = '/usr/sbin/sshd';
export const SSH_PORT = 22;
/** First line of every sshd_config we write; `cleanup` reads the run id back from it. */
export const CONFIG_MARK = '# netbench-run-id:';

export interface SshdFiles {
  readonly dir: string;
  readonly config: string;
  readonly hostKey: string;
  readonly clientKey: string;
  readonly knownHosts: string;
  readonly log: string;
  readonly pidFile: string;
}

export interface SshdProcess {
  readonly pid: number;
  readonly startTime: string;
}

/** sshd_config takes double quotes around values with spaces; anything stranger is refused. */
function configValue(value: string): string {
  if (/["\n\r]/.test(value)) throw new Error(`path ${JSON.stringify(value)} cannot be written into sshd_config`);
  return /\s/.test(value) ? `"${value}"` : value;
}

export function sshdConfigText(runId: string, netns: string, address: string, files: SshdFiles, authorizedKeys: string): string {
  return [
    `${CONFIG_MARK} ${runId}`,
    `# netbench-netns: ${netns}`,
    `ListenAddress ${address}`,
    `Port ${SSH_PORT}`,
    `HostKey ${configValue(files.hostKey)}`,
    `PidFile ${configValue(files.pidFile)}`,
    'UsePAM no',
    'PermitRootLogin prohibit-password',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    `AuthorizedKeysFile ${configValue(authorizedKeys)}`,
    'StrictModes no',
    'UseDNS no',
    'Subsystem sftp internal-sftp',
    '',
  ].join('\n');
}

async function keygen(path: string, comment: string): Promise<void> {
  await rm(path, { force: true });
  await rm(`${path}.pub`, { force: true });
  await mustRun(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', path]);
}

/** Keys, authorized_keys, known_hosts and sshd_config under `dir`. Files only: nothing to tear down. */
export async function writeSshdFiles(dir: string, runId: string, hostId: string, netns: string, address: string): Promise<SshdFiles> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const files: SshdFiles = {
    dir,
    config: join(dir, 'sshd_config'),
    hostKey: join(dir, 'ssh_host_ed25519_key'),
    clientKey: join(dir, 'id_ed25519'),
    knownHosts: join(dir, 'known_hosts'),
    log: join(dir, 'sshd.log'),
    pidFile: join(dir, 'sshd.pid'),
  };
  const comment = `netbench-${runId}-${hostId}`;
  await Promise.all([keygen(files.hostKey, comment), keygen(files.clientKey, comment)]);
  const authorizedKeys = join(dir, 'authorized_keys');
  await writeFile(authorizedKeys, await readFile(`${files.clientKey}.pub`, 'utf8'), { mode: 0o600 });
  const [type, key] = (await readFile(`${files.hostKey}.pub`, 'utf8')).trim().split(/\s+/);
  await writeFile(files.knownHosts, `${address} ${type} ${key}\n`, { mode: 0o644 });
  await writeFile(files.config, sshdConfigText(runId, netns, address, files, authorizedKeys), { mode: 0o600 });
  return files;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Start sshd inside `netns`, detached (it outlives this call; teardown stops
 * it), logging to a file rather than a pipe so it never blocks or dies on a
 * closed pipe when netbench exits. Resolves once port 22 answers an SSH
 * handshake with our host key.
 */
export async function startSshd(netns: string, address: string, files: SshdFiles, timeoutMs = 10_000): Promise<SshdProcess> {
  // Debian's sshd refuses to start without its privilege-separation directory.
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  await access(SSHD, constants.X_OK);
  const log = await open(files.log, 'w');
  let pid: number | undefined;
  try {
    const child = spawn('ip', ['netns', 'exec', netns, SSHD, '-D', '-e', '-f', files.config], {
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
    });
    child.unref();
    pid = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => (child.pid !== undefined ? resolve(child.pid) : reject(new Error('sshd has no pid'))));
    });
  } finally {
    await log.close();
  }
  // `ip netns exec` execs sshd in place, so the pid and its start time are sshd's.
  const state = await processState(pid);
  if (!state) throw new Error(`sshd in ${netns} exited at once: ${(await readFile(files.log, 'utf8')).trim()}`);
  const proc = { pid, startTime: state.startTime };
  try {
    await waitForSsh(netns, address, files, proc, timeoutMs);
  } catch (error) {
    await terminate([proc], 500).catch(() => {});
    throw error;
  }
  return proc;
}

async function waitForSsh(netns: string, address: string, files: SshdFiles, proc: SshdProcess, timeoutMs: number): Promise<void> {
  const expected = (await readFile(files.knownHosts, 'utf8')).trim();
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (!(await isSameProcessAlive(proc.pid, proc.startTime))) {
      throw new Error(`sshd in ${netns} exited: ${(await readFile(files.log, 'utf8')).trim()}`);
    }
    if ((await readFile(files.log, 'utf8')).includes('Server listening on')) {
      // A real handshake from inside the namespace proves port 22 accepts and serves our key.
      const scan = await runCommand(['ip', 'netns', 'exec', netns, 'ssh-keyscan', '-T', '2', '-t', 'ed25519', '-p', String(SSH_PORT), address], { timeoutMs: 5000 });
      const line = scan.stdout
        .split('\n')
        .find((l) => l.startsWith(`${address} `))
        ?.trim();
      if (line === expected) return;
      last = line ? `host key mismatch: ${line}` : scan.stderr.trim();
    }
    await sleep(20);
  }
  throw new Error(`sshd in ${netns} did not accept connections on ${address}:${SSH_PORT} within ${timeoutMs} ms${last ? ` (${last})` : ''}`);
}
