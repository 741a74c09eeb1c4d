import type { Duplex } from 'node:stream';
import type { ExecOptions, HostProcess, Logger, SpawnOptions } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import type { Client } from 'ssh2';
import { connectWithRetry, SshConnectError } from './connect-with-retry.js';
import { hostKeyCheck } from './host-key-check.js';
import { type AttemptSettings, ConnectAttemptError, openConnection } from './open-connection.js';
import { loadPrivateKey } from './private-key.js';
import { execRemote } from './remote-exec.js';
import { startRemoteProcess } from './remote-process.js';
import { uploadFile } from './sftp-upload.js';
import { DEFAULT_CONNECT_RETRY, DEFAULT_KEEPALIVE_INTERVAL_MS, DEFAULT_READY_TIMEOUT_MS, type SshHost, type SshHostOptions, type SshJumpOptions } from './ssh-host-options.js';
import { SshSession } from './ssh-session.js';

export interface SshConnectContext {
  signal?: AbortSignal;
  log?: Logger;
}

/**
 * Connect to a machine over SSH and return it as a `Host`. One connection
 * carries every command (each one a channel); it is made here, with retries
 * while the machine boots, the host key always verified. Should the
 * connection drop later, the next command reconnects once the same way.
 * Rejects with a clear message when the host cannot be reached, its key is
 * refused or authentication fails; the passphrase never appears in it.
 */
export async function connectSshHost(options: SshHostOptions, ctx: SshConnectContext = {}): Promise<SshHost> {
  const port = options.port ?? 22;
  const label = `host ${options.name} (${options.address}:${port}${options.jump ? ` via bastion ${options.jump.address}:${options.jump.port ?? 22}` : ''})`;
  const secrets = [options.passphrase, options.jump?.passphrase].filter((s): s is string => !!s);
  const mask = (error: unknown): unknown => maskSecrets(error, secrets);

  let current: SshSession | undefined;
  let pending: Promise<SshSession> | undefined;
  let closed = false;
  let connections = 0;

  const connect = async (signal?: AbortSignal): Promise<SshSession> => {
    const began = Date.now();
    const bastion = options.jump ? await connectJump(options.jump, label, signal, ctx.log) : undefined;
    try {
      const target = await resolveTarget(options, label, bastion, signal);
      const client = await connectWithRetry((attemptSignal) => target.attempt(attemptSignal), options.connectRetry ?? DEFAULT_CONNECT_RETRY, label, signal, ctx.log);
      const session = new SshSession(label, client, bastion);
      await session.start().catch(async (error: unknown) => {
        await session.close();
        throw error;
      });
      connections += 1;
      ctx.log?.debug(`${label}: connected in ${Date.now() - began} ms (connection ${connections})`);
      return session;
    } catch (error) {
      bastion?.destroy();
      throw error;
    }
  };

  const session = (): Promise<SshSession> => {
    if (closed) return Promise.reject(new NetbenchError(`${label}: connection already closed`));
    if (current && !current.lost) return Promise.resolve(current);
    if (!pending) {
      if (current?.lost) ctx.log?.warn(`${label}: ${current.lost.message}; reconnecting`);
      pending = connect().then(
        (made) => {
          current = made;
          pending = undefined;
          return made;
        },
        (error: unknown) => {
          pending = undefined;
          throw mask(error);
        },
      );
    }
    return pending;
  };

  try {
    current = await connect(ctx.signal);
  } catch (error) {
    throw mask(error);
  }

  const spawn = (argv: readonly string[], spawnOptions: SpawnOptions = {}): HostProcess => startRemoteProcess(session(), argv, spawnOptions);

  return {
    id: options.id,
    name: options.name,
    cloud: options.cloud,
    zone: options.zone,
    region: options.region,
    machineType: options.machineType,
    internalIp: options.internalIp,
    externalIp: options.externalIp,
    // The OS name arrives from the host shortly after connecting.
    get os() {
      return options.os ?? current?.os;
    },
    labels: options.labels ?? {},
    hostKeyVerification: options.hostKey.mode,
    facts: () => (current ? current.facts : Promise.resolve({})),
    spawn,
    exec: (argv: readonly string[], execOptions: ExecOptions = {}) =>
      execRemote(startRemoteProcess(session(), argv, { env: execOptions.env, signal: execOptions.signal }), argv, execOptions),
    async upload(remotePath: string, content: string | Uint8Array, uploadOptions: { mode?: number } = {}) {
      await uploadFile(await session(), remotePath, content, uploadOptions.mode);
    },
    async close() {
      closed = true;
      // A reconnect may be under way: close what it makes too.
      await Promise.all([
        current?.close(),
        pending?.then(
          (made) => made.close(),
          () => undefined,
        ),
      ]);
    },
  };
}

/** How to reach the target: directly, or a fresh `direct-tcpip` channel through the bastion for every attempt. */
async function resolveTarget(
  options: SshHostOptions,
  label: string,
  bastion: Client | undefined,
  signal?: AbortSignal,
): Promise<{ attempt(signal?: AbortSignal): Promise<Client> }> {
  const port = options.port ?? 22;
  const base = await attemptSettings(options, label, signal);
  return {
    async attempt(attemptSignal) {
      // The policy's files are read again each attempt: tofu may have recorded the key meanwhile.
      const check = await hostKeyCheck(options.hostKey, { label, address: options.address, port });
      const sock = bastion ? await forwardThrough(bastion, options.address, port, label) : undefined;
      return openConnection({ ...base, check, sock }, attemptSignal);
    },
  };
}

async function connectJump(jump: SshJumpOptions, targetLabel: string, signal?: AbortSignal, log?: Logger): Promise<Client> {
  const port = jump.port ?? 22;
  const label = `bastion ${jump.address}:${port} (for ${targetLabel})`;
  const base = await attemptSettings(jump, label, signal);
  return connectWithRetry(
    async (attemptSignal) => {
      const check = await hostKeyCheck(jump.hostKey, { label, address: jump.address, port });
      return openConnection({ ...base, check }, attemptSignal);
    },
    jump.connectRetry ?? DEFAULT_CONNECT_RETRY,
    label,
    signal,
    log,
  );
}

/** Key read and decrypted, agent chosen: what stays the same across attempts. */
async function attemptSettings(options: SshJumpOptions, label: string, signal?: AbortSignal): Promise<Omit<AttemptSettings, 'check' | 'sock'>> {
  signal?.throwIfAborted();
  const port = options.port ?? 22;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new SshConnectError(`${label}: invalid port ${port}`);
  if (!options.user) throw new SshConnectError(`${label}: no user to log in as`);
  const hasKey = options.privateKey !== undefined || options.privateKeyPath !== undefined;
  const privateKey = hasKey ? await loadPrivateKey({ path: options.privateKeyPath, text: options.privateKey, passphrase: options.passphrase }, label) : undefined;
  const agent = options.agent === false ? undefined : (options.agent ?? (hasKey ? undefined : process.env.SSH_AUTH_SOCK));
  if (!privateKey && !agent) {
    throw new SshConnectError(`${label}: no way to authenticate as ${options.user}: give a private key file, or run an ssh-agent (SSH_AUTH_SOCK is not set)`);
  }
  return {
    label,
    address: options.address,
    port,
    user: options.user,
    privateKey,
    agent,
    readyTimeoutMs: options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
    keepaliveIntervalMs: options.keepaliveIntervalMs ?? DEFAULT_KEEPALIVE_INTERVAL_MS,
  };
}

const FORWARD_PROHIBITED = 1;

function forwardThrough(bastion: Client, address: string, port: number, label: string): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    bastion.forwardOut('127.0.0.1', 0, address, port, (error, stream) => {
      if (!error) return resolve(stream);
      const reason = (error as { reason?: number }).reason;
      if (reason === FORWARD_PROHIBITED) {
        reject(new ConnectAttemptError(`the bastion of ${label} does not allow TCP forwarding (AllowTcpForwarding in its sshd_config): ${error.message}`, false));
      } else {
        // The bastion could not reach the target (refused, no route): like a direct connection, the target may still be booting.
        reject(new ConnectAttemptError(`the bastion could not reach ${address}:${port}: ${error.message}`, true));
      }
    });
  });
}

/** The same error with every secret replaced by `***` (message and cause chain). */
function maskSecrets(error: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0 || !(error instanceof Error)) return error;
  const scrub = (text: string) => secrets.reduce((acc, secret) => acc.split(secret).join('***'), text);
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (secrets.some((s) => e instanceof Error && e.message.includes(s))) {
      Object.defineProperty(e, 'message', { value: scrub(e.message), configurable: true, writable: true });
      if (e.stack) e.stack = scrub(e.stack);
    }
  }
  return error;
}
