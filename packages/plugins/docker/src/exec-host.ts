import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { type Duplex, PassThrough } from 'node:stream';
import type { ExecOptions, ExecResult, Host, HostProcess, SpawnOptions } from '@netbench/plugin-api';
import { TimeoutError } from '@netbench/plugin-api';
import type Docker from 'dockerode';

export interface ExecHostOptions {
  readonly docker: Docker;
  /** Container id or name. */
  readonly container: string;
  readonly id: string;
  readonly name: string;
  readonly cloud: string;
  readonly internalIp: string;
  readonly externalIp?: string;
  readonly zone?: string;
  readonly machineType?: string;
  readonly os?: string;
  readonly labels?: Record<string, string>;
}

/**
 * Every command runs as `sh -c 'echo $$ >"$0"; exec "$@"' PIDFILE ARGV...`:
 * the shell writes its pid and becomes the command, so `kill` can signal it
 * with another exec (the Engine API has no way to signal an exec). The argv
 * stays a list of positional parameters: nothing is pasted into the script.
 */
const WRAPPER = 'echo $$ >"$0" && exec "$@"';
const KILLER = 'i=0; while [ ! -s "$1" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; kill -s "$0" "$(cat "$1")"';

const signalNumber = (name: NodeJS.Signals) => constants.signals[name];

/** The hijacked exec stream ends before the daemon has recorded the exit code; ask until it has. */
async function exitCode(exec: Docker.Exec): Promise<number | null> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const info = await exec.inspect();
    if (!info.Running && info.ExitCode !== null) return info.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, Math.min(10 * 2 ** attempt, 200)));
  }
  return null;
}

/** A `Host` whose commands run in a container through the Docker Engine API's exec. */
export function execHost(options: ExecHostOptions): Host {
  const container = options.docker.getContainer(options.container);

  const signalInside = async (pidFile: string, signal: NodeJS.Signals) => {
    const exec = await container.exec({ Cmd: ['sh', '-c', KILLER, signal.replace(/^SIG/, ''), pidFile], AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    stream.resume();
    await new Promise((resolve) => {
      stream.once('close', resolve);
      stream.once('end', resolve);
    });
  };

  const spawn = (argv: readonly string[], spawnOptions: SpawnOptions = {}): HostProcess => {
    if (argv.length === 0) throw new Error('empty argv');
    const began = Date.now();
    const pidFile = `/tmp/.netbench-exec-${randomBytes(6).toString('hex')}.pid`;
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const stdin = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    let sentSignal: NodeJS.Signals | undefined;
    let finished = false;

    const exited = (async (): Promise<ExecResult> => {
      const exec = await container.exec({
        Cmd: ['sh', '-c', WRAPPER, pidFile, ...argv],
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
        Env: Object.entries(spawnOptions.env ?? {}).map(([k, v]) => `${k}=${v}`),
      });
      const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex;
      const closed = new Promise<void>((resolve) => {
        stream.once('end', resolve);
        stream.once('close', resolve);
        stream.once('error', () => resolve());
      });
      options.docker.modem.demuxStream(stream, stdout, stderr);
      // Whatever the caller writes (or nothing) goes to the command; closing it half-closes the socket.
      stdin.pipe(stream);
      await closed;
      stdout.end();
      stderr.end();
      let code = await exitCode(exec);
      let signal: string | null = null;
      // A process that died of a signal exits 128+n; report it as the signal we sent.
      if (sentSignal !== undefined && (code === null || code === 128 + signalNumber(sentSignal))) {
        signal = sentSignal;
        code = null;
      }
      return { stdout: out, stderr: err, code, signal, durationMs: Date.now() - began };
    })();
    exited.then(
      () => {
        finished = true;
      },
      () => {
        finished = true;
      },
    );

    const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
      if (finished) return;
      sentSignal = signal;
      // The killer waits for the pid file, so a kill right after spawn still lands.
      signalInside(pidFile, signal).catch(() => {});
    };
    const onAbort = () => kill('SIGTERM');
    spawnOptions.signal?.addEventListener('abort', onAbort, { once: true });
    if (spawnOptions.signal?.aborted) onAbort();
    void exited.finally(() => spawnOptions.signal?.removeEventListener('abort', onAbort)).catch(() => {});
    return { stdout, stderr, stdin, exited, kill };
  };

  const exec = async (argv: readonly string[], execOptions: ExecOptions = {}): Promise<ExecResult> => {
    const proc = spawn(argv, { signal: execOptions.signal, env: execOptions.env });
    proc.stdin.end(execOptions.stdin ?? '');
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    if (execOptions.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        timedOut = true;
        proc.kill('SIGKILL');
      }, execOptions.timeoutMs);
    }
    try {
      const result = await proc.exited;
      if (timedOut) throw new TimeoutError(`${argv.join(' ')} timed out after ${execOptions.timeoutMs} ms`);
      if (execOptions.signal?.aborted) throw execOptions.signal.reason ?? new Error('aborted');
      return result;
    } finally {
      if (timer) clearTimeout(timer);
    }
  };

  return {
    id: options.id,
    name: options.name,
    cloud: options.cloud,
    zone: options.zone,
    machineType: options.machineType,
    internalIp: options.internalIp,
    externalIp: options.externalIp,
    os: options.os,
    labels: options.labels ?? {},
    exec,
    spawn,
  };
}
