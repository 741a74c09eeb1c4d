import { spawn as spawnChild } from 'node:child_process';
import { TimeoutError } from '../errors/index.js';
import type { ExecOptions, ExecResult, Host, HostProcess, SpawnOptions } from '../plugin/host.js';
import { timeoutScale } from './timeout-scale.js';

export interface ProcessHostOptions {
  id: string;
  name: string;
  cloud: string;
  internalIp: string;
  externalIp?: string;
  zone?: string;
  region?: string;
  machineType?: string;
  os?: string;
  labels?: Record<string, string>;
  /**
   * Argv prepended to every command, e.g. `['ip', 'netns', 'exec', 'ns1']`.
   * Arguments are passed to `execve` directly, so no quoting is involved.
   */
  prefix?: readonly string[];
  /** See `Host.installHost`. */
  installHost?: Host;
  /** Called with every process started, so a plugin can record or reap it. */
  onSpawn?: (pid: number, argv: readonly string[]) => void;
}

/** A `Host` whose commands run as child processes of netbench (optionally through a prefix). */
export function processHost(options: ProcessHostOptions): Host {
  const prefix = options.prefix ?? [];
  const start = (argv: readonly string[], env?: Readonly<Record<string, string>>) => {
    const full = [...prefix, ...argv];
    const [command, ...args] = full;
    if (!command) throw new Error('empty argv');
    const child = spawnChild(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: env ? { ...process.env, ...env } : process.env,
      // Own process group, so a Ctrl-C delivered to netbench's group does not
      // kill tools before teardown has stopped them in order.
      detached: true,
    });
    if (child.pid !== undefined) options.onSpawn?.(child.pid, full);
    return child;
  };

  const spawn = (argv: readonly string[], spawnOptions: SpawnOptions = {}): HostProcess => {
    const began = Date.now();
    const child = start(argv, spawnOptions.env);
    let stdout = '';
    let stderr = '';
    // Collect output for `exited` without stealing it from readers of the streams.
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        child.kill(signal);
      }
    };
    const exited = new Promise<ExecResult>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => {
        spawnOptions.signal?.removeEventListener('abort', onAbort);
        resolve({ stdout, stderr, code, signal, durationMs: Date.now() - began });
      });
    });
    const onAbort = () => kill('SIGTERM');
    spawnOptions.signal?.addEventListener('abort', onAbort, { once: true });
    if (spawnOptions.signal?.aborted) onAbort();
    return { pid: child.pid, stdout: child.stdout, stderr: child.stderr, stdin: child.stdin, exited, kill };
  };

  const exec = async (argv: readonly string[], execOptions: ExecOptions = {}): Promise<ExecResult> => {
    const proc = spawn(argv, { signal: execOptions.signal, env: execOptions.env });
    proc.stdin.on('error', () => {});
    proc.stdin.end(execOptions.stdin ?? '');
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    // Children of this machine: on a slow one (the kernel VM) every command's time limit stretches alike.
    const timeoutMs = execOptions.timeoutMs === undefined ? undefined : execOptions.timeoutMs * timeoutScale();
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        timedOut = true;
        proc.kill('SIGKILL');
      }, timeoutMs);
    }
    try {
      const result = await proc.exited;
      if (timedOut) throw new TimeoutError(`${argv.join(' ')} timed out after ${timeoutMs} ms`);
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
    region: options.region,
    machineType: options.machineType,
    internalIp: options.internalIp,
    externalIp: options.externalIp,
    os: options.os,
    labels: options.labels ?? {},
    ...(options.installHost ? { installHost: options.installHost } : {}),
    exec,
    spawn,
  };
}
