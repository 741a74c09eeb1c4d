// SSH hosts as cloud plugins ask for them: `ctx.connectSsh(options)` in
// provision; the engine's SSH transport (in @netbench/core) connects them.
import type { Host } from './host.js';

/**
 * How the host's key is checked. Host keys are always verified: there is no
 * "accept anything" mode.
 * - `known-hosts`: an OpenSSH known_hosts file (plain and hashed names,
 *   `[host]:port`); default `~/.ssh/known_hosts` and `/etc/ssh/ssh_known_hosts`.
 *   For machines you already have (`cloud: static`).
 * - `pinned`: the key must be one of `keys` — OpenSSH public key lines
 *   (`ssh-ed25519 AAAA... comment`) or fingerprints (`SHA256:...`), e.g. read
 *   from the cloud's serial console; `source` says where they came from.
 * - `tofu`: trust on first use. The first key seen is recorded in
 *   `recordFile` (known_hosts format, e.g. in the run folder) and any other
 *   key for the same host is refused afterwards.
 */
export type SshHostKeyPolicy = { mode: 'known-hosts'; file?: string } | { mode: 'pinned'; keys: string[]; source: string } | { mode: 'tofu'; recordFile: string };

/** Retries of the connection while a new machine boots (refused, timed out, unreachable). */
export interface SshConnectRetry {
  /** Attempts in all, at least 1. */
  attempts: number;
  /** Wait before the second attempt; doubled after each failure. */
  initialDelayMs: number;
  maxDelayMs: number;
}

export interface SshHostOptions {
  id: string;
  name: string;
  cloud: string;
  zone?: string;
  region?: string;
  machineType?: string;
  internalIp: string;
  externalIp?: string;
  /** Detected (`/etc/os-release` PRETTY_NAME) when left out. */
  os?: string;
  labels?: Record<string, string>;
  /** What netbench connects to (usually the external IP). */
  address: string;
  /** Default 22. */
  port?: number;
  user: string;
  privateKeyPath?: string;
  privateKey?: string;
  /** Never logged; masked in error messages. */
  passphrase?: string;
  /** Agent socket; default `$SSH_AUTH_SOCK` when no key is given; `false`: never. */
  agent?: string | false;
  hostKey: SshHostKeyPolicy;
  /** Bastion to reach `address` through (a `direct-tcpip` channel). */
  jump?: SshJumpOptions;
  /** Default `{ attempts: 3, initialDelayMs: 500, maxDelayMs: 5000 }`. */
  connectRetry?: SshConnectRetry;
  /** Deadline of one connection attempt (TCP connect, handshake, authentication). Default 10 000 ms. */
  readyTimeoutMs?: number;
  /** SSH keep-alive interval; 3 unanswered ones drop the connection. Default 10 000 ms. */
  keepaliveIntervalMs?: number;
}

/** A bastion host: the connection fields of `SshHostOptions`. */
export type SshJumpOptions = Omit<SshHostOptions, 'id' | 'name' | 'cloud' | 'internalIp' | 'labels' | 'jump'>;

/** What a connection learns of its machine as it opens, with no command of its own (Linux `/proc`, `nproc`). */
export interface SshHostFacts {
  /** `PRETTY_NAME` of /etc/os-release. */
  readonly os?: string;
  /** net.ipv4.tcp_congestion_control now. */
  readonly congestionControl?: string;
  /** Online CPUs (`nproc`), as digits. */
  readonly cpuCount?: string;
}

/** A `Host` reached over one SSH connection. */
export interface SshHost extends Host {
  /** How the host key was verified; cloud plugins put it in the host's labels. */
  readonly hostKeyVerification: 'known-hosts' | 'pinned' | 'tofu';
  /**
   * The facts the connection's first command (netbench's reaper) printed as
   * it started: no round trip of their own. Each is undefined where the
   * machine could not tell; resolves with none when the connection could
   * not read them (its first command ended, or 15 s passed), so a caller
   * may then ask with `exec`. Optional: a transport may not offer it.
   */
  facts?(): Promise<SshHostFacts>;
  /** Stop what this host still runs, close the connection (and the bastion's). Idempotent. */
  close(): Promise<void>;
}

/**
 * Open a `Host` over SSH: host key verified by `hostKey`, retried while the
 * machine boots, one connection for every command. Bound to the calling
 * hook's signal and logger. Rejects with a clear message (never the
 * passphrase) when the host cannot be reached, its key is refused or
 * authentication fails.
 */
export type SshConnector = (options: SshHostOptions) => Promise<SshHost>;
