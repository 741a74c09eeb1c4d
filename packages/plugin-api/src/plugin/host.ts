import type { Readable, Writable } from 'node:stream';

/**
 * What tools see of a machine. Provided by a cloud plugin's `provision`.
 *
 * Every command is an argv array. The transport (local child process,
 * `ip netns exec`, SSH) is responsible for quoting: a spec value is never
 * pasted into a shell string, so `exec(['echo', 'a; rm -rf /'])` prints the
 * literal argument and runs nothing else.
 */
/** A range of ports a host accepts connections on (`Host.reachablePorts`). */
export interface ReachablePorts {
  readonly first: number;
  /** Last port, inclusive. */
  readonly last: number;
  readonly protocols: readonly ('tcp' | 'udp')[];
}

export interface Host {
  /** Fleet id, unique within a run (e.g. `client` or `vm1@zone=us-east1-b`). */
  readonly id: string;
  /** Name of the host in the spec (`hosts.<name>`). */
  readonly name: string;
  /** Cloud plugin name that made it (`local`, `static`, `aws`, ...). */
  readonly cloud: string;
  readonly zone?: string;
  readonly region?: string;
  readonly machineType?: string;
  /** Address other hosts of the run reach this one on (private network). */
  readonly internalIp: string;
  /** Public address, when the host has one. */
  readonly externalIp?: string;
  /** Operating system description (e.g. `Debian GNU/Linux 12`), when known. */
  readonly os?: string;
  /** Extra facts that end up in every sample's labels (`host_<role>_<key>`). */
  readonly labels: Readonly<Record<string, string>>;
  /**
   * The only ports other hosts can reach on this host, when not all are: a
   * Kubernetes ClusterIP Service forwards just the ports it lists (kube-proxy
   * drops the rest), a cloud firewall opens some. Tools start their servers
   * on these ports only (`PortPool.acquire` with `reachablePort`), and say so
   * when none of their ports is among them. Absent: every port is reachable.
   */
  readonly reachablePorts?: readonly ReachablePorts[];

  /**
   * Run a command to completion. Never rejects because of a non-zero exit
   * code: the caller inspects `code`. Rejects when the command could not be
   * started at all, on timeout (`TimeoutError`) or when `signal` aborts.
   */
  exec(argv: readonly string[], options?: ExecOptions): Promise<ExecResult>;

  /** Start a long-running command (a server, a streaming client). */
  spawn(argv: readonly string[], options?: SpawnOptions): HostProcess;

  /**
   * Where tools install packages for this host, when not on the host itself.
   * Local-lab namespaces share this machine's filesystem but have no route
   * or DNS, so their `installHost` runs commands in the root namespace. The
   * engine passes it to a tool's `install`; `check` and runs stay on the host.
   */
  readonly installHost?: Host;
  /** Write a file on the host (SFTP over SSH; a plain write for local hosts). */
  upload?(remotePath: string, content: string | Uint8Array, options?: { mode?: number }): Promise<void>;

  /** Release transport resources (SSH connection). Idempotent. */
  close?(): Promise<void>;
}

export interface ExecOptions {
  /** Kill the command after this many milliseconds. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Written to the command's standard input, which is then closed. */
  stdin?: string;
  env?: Readonly<Record<string, string>>;
}

export interface SpawnOptions {
  signal?: AbortSignal;
  env?: Readonly<Record<string, string>>;
}

export interface ExecResult {
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code, or null when killed by a signal. */
  readonly code: number | null;
  readonly signal: string | null;
  /** Wall time in milliseconds. */
  readonly durationMs: number;
}

export interface HostProcess {
  /** Process id on the host, when the transport knows it. */
  readonly pid?: number;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly stdin: Writable;
  /** Resolves when the process exits (never rejects on non-zero exit). */
  readonly exited: Promise<ExecResult>;
  /** Ask the process to stop (default SIGTERM). Idempotent. */
  kill(signal?: NodeJS.Signals): void;
}
