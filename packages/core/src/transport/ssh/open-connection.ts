import type { Duplex } from 'node:stream';
import { NetbenchError } from '@netbench/plugin-api';
import type { AnyAuthMethod, AuthMethod, Client, ConnectConfig, ParsedKey, ServerHostKeyAlgorithm } from 'ssh2';
import type { HostKeyCheck } from './host-key-check.js';
import { loadSsh2 } from './load-ssh2.js';

/** Everything one connection attempt needs, already resolved (key read, known_hosts parsed). */
export interface AttemptSettings {
  /** `host web1 (203.0.113.5:22)`, for messages. */
  readonly label: string;
  readonly address: string;
  readonly port: number;
  readonly user: string;
  /** Already decrypted. */
  readonly privateKey?: ParsedKey;
  readonly agent?: string;
  readonly check: HostKeyCheck;
  readonly readyTimeoutMs: number;
  readonly keepaliveIntervalMs: number;
  /** A stream to the server's port (through a bastion) instead of a TCP connection. */
  readonly sock?: Duplex;
}

/** Why an attempt failed, and whether waiting and trying again can help (the machine is still booting). */
export class ConnectAttemptError extends NetbenchError {
  override readonly name: string = 'ConnectAttemptError';
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

// What a booting machine, a starting sshd or a slow network look like.
const RETRYABLE_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'EAI_AGAIN', 'ECONNABORTED']);
const RETRYABLE_MESSAGE_RE = /Connection lost before handshake|No response from server|Keepalive timeout|Channel open failure|timed out/i;

/**
 * One connection attempt: TCP (or the given stream), handshake with the host
 * key checked, authentication. Bounded by `readyTimeoutMs` (ssh2's own timer,
 * plus ours in case a stream stalls where ssh2 does not look).
 */
export async function openConnection(settings: AttemptSettings, signal?: AbortSignal): Promise<Client> {
  const { Client } = await loadSsh2();
  const client = new Client();
  let refusal: string | undefined;
  const config: ConnectConfig = {
    host: settings.address,
    port: settings.port,
    username: settings.user,
    // The key first, then the agent: exactly the methods configured, nothing else (no password prompts).
    authHandler: authMethods(settings) as AuthMethod[],
    readyTimeout: settings.readyTimeoutMs,
    keepaliveInterval: settings.keepaliveIntervalMs,
    keepaliveCountMax: 3,
    sock: settings.sock,
    // Host keys are always verified; ssh2 passes the raw key blob.
    hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => {
      settings.check.verify(key).then(
        (reason) => {
          refusal = reason;
          verify(reason === undefined);
        },
        (error: unknown) => {
          refusal = `could not check the host key of ${settings.label}: ${(error as Error).message}`;
          verify(false);
        },
      );
    },
    ...(settings.check.algorithms ? { algorithms: { serverHostKey: settings.check.algorithms as ServerHostKeyAlgorithm[] } } : {}),
  };

  return new Promise<Client>((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error) {
        client.removeAllListeners('ready');
        client.on('error', () => {});
        client.destroy();
        settings.sock?.destroy();
        reject(error);
      } else {
        resolve(client);
      }
    };
    const onAbort = () => finish(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(() => {
      finish(new ConnectAttemptError(`no SSH session with ${settings.label} within ${settings.readyTimeoutMs} ms (timed out)`, true));
    }, settings.readyTimeoutMs + 2000);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) return onAbort();
    client.once('ready', () => finish());
    client.on('error', (error: Error & { level?: string; code?: string }) => finish(classify(error, settings, refusal)));
    client.once('close', () => finish(new ConnectAttemptError(`${settings.label} closed the connection before authentication finished`, true)));
    client.connect(config);
    // Nagle off (ssh2 leaves it on): a command's channel-open and exec requests are small packets
    // sent back to back, and the second waited for the server's delayed ACK — ~85 ms per command
    // over a LAN, against ~9 ms for OpenSSH's multiplexed exec. Applied when the socket connects.
    client.setNoDelay(true);
  });
}

function authMethods(settings: AttemptSettings): AnyAuthMethod[] {
  const methods: AnyAuthMethod[] = [];
  if (settings.privateKey) methods.push({ type: 'publickey', username: settings.user, key: settings.privateKey });
  if (settings.agent) methods.push({ type: 'agent', username: settings.user, agent: settings.agent });
  return methods;
}

function classify(error: Error & { level?: string; code?: string }, settings: AttemptSettings, refusal: string | undefined): ConnectAttemptError {
  if (refusal !== undefined) return new ConnectAttemptError(refusal, false);
  if (error.level === 'client-authentication') {
    const methods = [settings.privateKey ? 'the private key' : undefined, settings.agent ? `the agent at ${settings.agent}` : undefined].filter(Boolean).join(' and ');
    return new ConnectAttemptError(
      `authentication as ${settings.user} on ${settings.label} failed (tried ${methods || 'no key'}): the server refused; check that the public key is in ~${settings.user}/.ssh/authorized_keys`,
      false,
    );
  }
  if (settings.check.algorithms && /no matching host key/i.test(error.message)) {
    return new ConnectAttemptError(
      `${settings.label} offers no host key of the types recorded for it (${settings.check.algorithms.join(', ')}); its keys were replaced or the address now belongs to another machine: ${error.message}`,
      false,
    );
  }
  if (error.level === 'client-timeout') return new ConnectAttemptError(`${error.message} (timed out after ${settings.readyTimeoutMs} ms)`, true);
  const retryable = (error.code !== undefined && RETRYABLE_CODES.has(error.code)) || RETRYABLE_MESSAGE_RE.test(error.message);
  return new ConnectAttemptError(error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message, retryable, { cause: error });
}
