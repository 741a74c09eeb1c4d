import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import type { ExecOptions, ExecResult, Host, HostProcess, ReachablePorts, SpawnOptions } from '@netbench/plugin-api';
import { TimeoutError } from '@netbench/plugin-api';
import { CHANNEL, closeFrame, encodeFrame, execEnd, execPath, killArgv, PROTOCOL_V5, parseStatus, wrapForSignals } from './exec-channel.js';

/** Where a pod is and how to reach its exec API. */
export interface PodTarget {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
}

export interface ExecHostFacts {
  readonly id: string;
  readonly name: string;
  readonly cloud: string;
  readonly internalIp: string;
  readonly zone?: string;
  readonly region?: string;
  readonly machineType?: string;
  readonly labels: Readonly<Record<string, string>>;
  /** A Service's host: only the ports the Service lists (kube-proxy forwards no other). */
  readonly reachablePorts?: readonly ReachablePorts[];
}

/** The part of an open exec WebSocket the host uses. */
export interface ExecSocket {
  readonly protocol: string;
  send(data: Buffer): void;
  close(): void;
  on(event: 'close', listener: () => void): unknown;
}

/** Opens an exec WebSocket (the client library's `WebSocketHandler`); binary frames arrive split into channel and payload. */
export interface ExecConnector {
  connect(path: string, textHandler: null, binaryHandler: (channel: number, payload: Buffer) => boolean): Promise<ExecSocket>;
}

type Socket = ExecSocket;

/**
 * A `Host` whose commands run in a pod's container through the exec
 * subresource (a WebSocket, `v5.channel.k8s.io` or `v4`), authenticated by
 * the client library from the kubeconfig. Every command is wrapped so its pid
 * is known: the exec API cannot signal, so `kill` is another exec.
 */
export function execHost(facts: ExecHostFacts, target: PodTarget, ws: ExecConnector): Host {
  const spawn = (argv: readonly string[], options: SpawnOptions & { stdin?: boolean } = {}): HostProcess => {
    const began = Date.now();
    const pidFile = `/tmp/netbench-${randomBytes(6).toString('hex')}.pid`;
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    let socket: Socket | undefined;
    let ended = false;
    const pendingStdin: Buffer[] = [];
    let stdinClosed = false;

    let failStdin: (error: Error) => void = () => undefined;
    const exited = new Promise<ExecResult>((resolve, reject) => {
      const finish = (result: ExecResult | Error) => {
        if (ended) return;
        ended = true;
        options.signal?.removeEventListener('abort', onAbort);
        stdout.end();
        stderr.end();
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      failStdin = finish;
      const path = execPath({ ...target, argv: wrapForSignals(argv, pidFile, options.env), stdin: options.stdin !== false });
      ws.connect(path, null, (channel, payload) => {
        if (channel === CHANNEL.stdout) stdout.write(payload);
        else if (channel === CHANNEL.stderr) stderr.write(payload);
        else if (channel === CHANNEL.status) {
          const end = execEnd(parseStatus(payload));
          const durationMs = Date.now() - began;
          // Let the streams deliver what they hold before the result says "done".
          setImmediate(() =>
            finish(
              end.kind === 'exited'
                ? { stdout: out, stderr: err, code: end.code, signal: null, durationMs }
                : new Error(`exec in pod ${target.namespace}/${target.pod}: ${end.message}`),
            ),
          );
          return false;
        }
        return true;
      }).then(
        (s) => {
          socket = s;
          s.on('close', () => setImmediate(() => finish(new Error(`exec stream to pod ${target.namespace}/${target.pod} closed before the command's status arrived`))));
          for (const chunk of pendingStdin.splice(0)) s.send(encodeFrame(CHANNEL.stdin, chunk));
          if (stdinClosed) closeStdin(s);
        },
        (error: unknown) => finish(error instanceof Error ? error : new Error(String(error))),
      );
    });

    const closeStdin = (s: Socket) => {
      if (s.protocol === PROTOCOL_V5) return s.send(closeFrame(CHANNEL.stdin));
      // v4 has no way to send EOF: a command reading stdin to its end would wait forever.
      kill('SIGKILL');
      failStdin(
        new Error(
          `exec in pod ${target.namespace}/${target.pod}: ending stdin needs the ${PROTOCOL_V5} protocol, and the API server speaks ${s.protocol || 'an older one'} (Kubernetes 1.30+ has v5)`,
        ),
      );
    };
    const stdin = new Writable({
      write(chunk: Buffer, _enc, done) {
        if (socket) socket.send(encodeFrame(CHANNEL.stdin, chunk));
        else pendingStdin.push(Buffer.from(chunk));
        done();
      },
      final(done) {
        stdinClosed = true;
        if (socket) closeStdin(socket);
        done();
      },
    });

    const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
      if (ended) return;
      // Fire and forget: a process already gone makes `kill` fail, which is fine.
      void spawn(killArgv(pidFile, signal), { stdin: false }).exited.catch(() => undefined);
    };
    const onAbort = () => kill('SIGTERM');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    return { stdout, stderr, stdin, exited, kill };
  };

  const exec = async (argv: readonly string[], options: ExecOptions = {}): Promise<ExecResult> => {
    const proc = spawn(argv, { signal: options.signal, env: options.env, stdin: options.stdin !== undefined });
    if (options.stdin !== undefined) proc.stdin.end(options.stdin);
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            proc.kill('SIGKILL');
          }, options.timeoutMs);
    try {
      const result = await proc.exited;
      if (timedOut) throw new TimeoutError(`${argv.join(' ')} timed out after ${options.timeoutMs} ms`);
      if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
      return result;
    } finally {
      if (timer) clearTimeout(timer);
    }
  };

  const upload = async (remotePath: string, content: string | Uint8Array, options: { mode?: number } = {}) => {
    const mode = (options.mode ?? 0o644).toString(8);
    const proc = spawn(['sh', '-c', 'cat > "$0" && chmod "$1" "$0"', remotePath, mode]);
    proc.stdin.end(typeof content === 'string' ? Buffer.from(content) : Buffer.from(content));
    const result = await proc.exited;
    if (result.code !== 0) throw new Error(`upload of ${remotePath} to pod ${target.pod} failed: ${result.stderr.trim()}`);
  };

  return { ...facts, labels: facts.labels, exec, spawn: (argv, options) => spawn(argv, options), upload };
}
