/**
 * The Kubernetes exec stream protocol (`v4.channel.k8s.io`,
 * `v5.channel.k8s.io`), as plain functions: every WebSocket message is one
 * binary frame whose first byte is the channel. 0 stdin, 1 stdout, 2 stderr,
 * 3 error/status (a JSON `Status` when the command ends), 4 resize; v5 adds
 * 255 "close": `[255, channel]` half-closes a stream (how stdin gets EOF).
 */
export const CHANNEL = { stdin: 0, stdout: 1, stderr: 2, status: 3, resize: 4, close: 255 } as const;
export const PROTOCOL_V5 = 'v5.channel.k8s.io';
export const PROTOCOL_V4 = 'v4.channel.k8s.io';

export interface ExecQuery {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  readonly argv: readonly string[];
  readonly stdin: boolean;
}

/**
 * The path of the exec subresource, as the client library builds it: every
 * argument a separate `command` parameter (percent-encoded; never a shell
 * string), stdout and stderr always, no TTY.
 */
export function execPath(q: ExecQuery): string {
  if (q.argv.length === 0) throw new Error('empty argv');
  const params = new URLSearchParams();
  params.set('stdout', 'true');
  params.set('stderr', 'true');
  params.set('stdin', String(q.stdin));
  params.set('tty', 'false');
  for (const arg of q.argv) params.append('command', arg);
  params.set('container', q.container);
  return `/api/v1/namespaces/${encodeURIComponent(q.namespace)}/pods/${encodeURIComponent(q.pod)}/exec?${params.toString()}`;
}

/** A data frame for a channel (stdin data from the client; stdout/stderr from the server). */
export function encodeFrame(channel: number, data: string | Uint8Array): Buffer {
  const payload = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
  return Buffer.concat([Buffer.from([channel]), payload]);
}

/** v5 only: half-close a channel (stdin EOF). */
export function closeFrame(channel: number): Buffer {
  return Buffer.from([CHANNEL.close, channel]);
}

export function decodeFrame(frame: Uint8Array): { channel: number; payload: Buffer } {
  if (frame.length === 0) throw new Error('empty exec frame');
  const buf = Buffer.from(frame);
  return { channel: buf[0]!, payload: buf.subarray(1) };
}

/** The fields of a meta/v1 Status that the status channel carries. */
export interface ExecStatus {
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly details?: { readonly causes?: readonly { readonly reason?: string; readonly message?: string }[] };
}

/** How a command ended, from its status frame. */
export type ExecEnd =
  | { readonly kind: 'exited'; readonly code: number }
  /** The command never ran (e.g. no such executable); the message says why. */
  | { readonly kind: 'not-started'; readonly message: string };

const NOT_FOUND_RE = /executable file not found|no such file or directory|not found in \$PATH/i;

/**
 * `Success` is exit code 0; `Failure` with reason `NonZeroExitCode` carries
 * the code in a cause of reason `ExitCode` (kubelet's convention). Any other
 * failure means the command did not run; a missing executable is reported as
 * exit code 127, as a shell would, so tool checks see "not installed".
 */
export function execEnd(status: ExecStatus): ExecEnd {
  if (status.status === 'Success') return { kind: 'exited', code: 0 };
  if (status.reason === 'NonZeroExitCode') {
    const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
    const code = Number(cause?.message);
    if (Number.isInteger(code)) return { kind: 'exited', code };
  }
  const message = status.message ?? status.reason ?? 'exec failed';
  if (NOT_FOUND_RE.test(message)) return { kind: 'exited', code: 127 };
  return { kind: 'not-started', message };
}

export function parseStatus(payload: Buffer): ExecStatus {
  try {
    return JSON.parse(payload.toString('utf8')) as ExecStatus;
  } catch {
    return { status: 'Failure', message: `unreadable exec status: ${payload.toString('utf8').slice(0, 200)}` };
  }
}

/**
 * The argv actually sent for a long-running command: a POSIX shell writes its
 * pid to `pidFile` and execs the command (its arguments stay positional
 * parameters, never part of the script), so it can be signalled later — the
 * exec API has no signal channel, and closing the stream does not stop the
 * process. Environment variables go through `env NAME=VALUE`.
 */
export function wrapForSignals(argv: readonly string[], pidFile: string, env?: Readonly<Record<string, string>>): string[] {
  return ['sh', '-c', 'echo $$ > "$0" && exec "$@"', pidFile, ...withEnv(argv, env)];
}

export function withEnv(argv: readonly string[], env?: Readonly<Record<string, string>>): string[] {
  const pairs = Object.entries(env ?? {});
  for (const [name] of pairs) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid environment variable name ${JSON.stringify(name)}`);
  return pairs.length === 0 ? [...argv] : ['env', ...pairs.map(([k, v]) => `${k}=${v}`), ...argv];
}

/** The command that sends `signal` to the process whose pid is in `pidFile`. */
export function killArgv(pidFile: string, signal: string): string[] {
  const name = signal.replace(/^SIG/, '');
  if (!/^[A-Z0-9]+$/.test(name)) throw new Error(`invalid signal ${signal}`);
  return ['sh', '-c', 'kill -s "$1" "$(cat "$0")"', pidFile, name];
}
