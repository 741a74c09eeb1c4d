import type { ExecResult, Host } from '@netbench/plugin-api';
import { NetbenchError, RetryableError } from '@netbench/plugin-api';
import type { PortPool, ToolServer, ToolServerOptions } from '@netbench/plugin-api/tool-kit';
import { assertReachableRange, PortInUseError, reachablePort, readBoundPorts, startToolServer } from '@netbench/plugin-api/tool-kit';
import { pinned } from './argv.js';
import { certificateArgv, nginxArgv, nginxConfig } from './nginx-config.js';

const SETUP_TIMEOUT_MS = 30_000;
const PORT_ATTEMPTS = 3;
// What `mktemp -d` may answer: a private directory netbench is willing to `rm -rf` afterwards.
const PRIVATE_DIR_RE = /^\/[A-Za-z0-9._/-]*\/netbench-http-[A-Za-z0-9-]+\.[A-Za-z0-9]+$/;

export const NGINX_SERVER: ToolServerOptions = { tool: 'nginx', protocol: 'tcp', exitMessage: (result) => lastLines(result) };

export interface EndpointOptions {
  readonly runId: string;
  /** Object sizes to create under `/obj-<bytes>`. */
  readonly sizes: readonly number[];
  readonly tls: boolean;
  readonly keepalive: boolean;
  readonly workers: number;
  readonly connections: number;
  readonly cpus?: string;
}

/** A running nginx in its own directory on the server host. */
export interface Endpoint {
  readonly dir: string;
  readonly port: number;
  /** Stop nginx (SIGTERM: its fast shutdown, then SIGKILL), give the port back and delete the directory. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Make a private directory on the server host (`mktemp -d`, named after the
 * run), the objects, a self-signed certificate when `tls`, the config, and
 * start nginx on a free port of `ports`. Everything is undone on failure.
 */
export async function startEndpoint(host: Host, ports: PortPool, options: EndpointOptions, signal: AbortSignal): Promise<Endpoint> {
  await sweepStaleDirs(host, signal);
  const dir = await makePrivateDir(host, options.runId, signal);
  const exec = (argv: readonly string[], stdin?: string) => mustExec(host, argv, signal, stdin);
  let server: ToolServer | undefined;
  const removeDir = () =>
    host.exec(['rm', '-rf', '--', dir], { timeoutMs: SETUP_TIMEOUT_MS }).then(
      () => undefined,
      () => undefined,
    );
  try {
    await exec(['mkdir', '-p', '--', `${dir}/www`, `${dir}/tmp`]);
    // mktemp makes it 0700; nginx workers may run as another user (nobody) when the master is root.
    await exec(['chmod', '0755', '--', dir, `${dir}/www`]);
    // Sparse files of zeros: no disk write, and nginx sends them with sendfile as any file.
    for (const size of new Set(options.sizes)) await exec(['truncate', '-s', String(size), '--', `${dir}/www/obj-${size}`]);
    if (options.tls) await exec(certificateArgv(dir));
    server = await startOnFreePort(host, ports, dir, options, signal);
  } catch (error) {
    await removeDir();
    throw error;
  }
  const running = server;
  let stopping: Promise<void> | undefined;
  return {
    dir,
    port: running.port,
    stop: () =>
      (stopping ??= (async () => {
        try {
          await running.stop();
        } finally {
          ports.release(running.port);
          await removeDir();
        }
      })()),
  };
}

/** The config names the port, so each attempt writes it anew before starting nginx. */
async function startOnFreePort(host: Host, ports: PortPool, dir: string, options: EndpointOptions, signal: AbortSignal): Promise<ToolServer> {
  let lastError: unknown;
  // Only ports the clients can reach (a Kubernetes Service lists its ports): refused at once when there are none.
  assertReachableRange(host, 'nginx', 'tcp', ports.first, ports.last);
  const reachable = reachablePort(host, 'tcp');
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt += 1) {
    const bound = await readBoundPorts(host, 'tcp', signal);
    const port = ports.acquire((candidate) => !reachable(candidate) || (bound?.has(candidate) ?? false));
    try {
      const config = nginxConfig({ dir, port, tls: options.tls, keepalive: options.keepalive, workers: options.workers, connections: options.connections });
      await mustExec(host, ['sh', '-c', 'cat > "$1"', 'sh', `${dir}/nginx.conf`], signal, config);
      return await startToolServer(host, pinned(options.cpus, nginxArgv(dir)), port, NGINX_SERVER, signal);
    } catch (error) {
      ports.release(port);
      if (!(error instanceof PortInUseError)) throw error;
      lastError = error;
    }
  }
  throw new RetryableError(`could not start nginx on ${host.name} after ${PORT_ATTEMPTS} ports: ${String(lastError)}`);
}

// A run killed with SIGKILL cannot remove its directories; `netbench cleanup` stops the processes but
// knows nothing of files on hosts. The next trial on the host removes them: an endpoint directory once
// no nginx of its own runs (its pid file is gone, as nginx deletes it at exit, or names a dead process)
// and it is 10 minutes old (setting one up takes seconds; a live one has a running nginx); a client
// directory (ab's CSV, a wrk script: no process to ask) once it is a day old, far longer than trials run.
// A fixed script: no spec value in it.
const SWEEP_SCRIPT = [
  'for d in "${TMPDIR:-/tmp}"/netbench-http-*.*; do',
  '  [ -d "$d" ] || continue',
  '  case "$d" in */netbench-http-client-*) age=1440 ;; *) age=10 ;; esac',
  '  [ -n "$(find "$d" -maxdepth 0 -mmin +$age)" ] || continue',
  '  if [ -f "$d/nginx.pid" ] && kill -0 "$(cat "$d/nginx.pid")" 2>/dev/null; then continue; fi',
  '  rm -rf -- "$d"',
  'done',
].join('\n');

async function sweepStaleDirs(host: Host, signal: AbortSignal): Promise<void> {
  await host.exec(['sh', '-c', SWEEP_SCRIPT], { signal, timeoutMs: SETUP_TIMEOUT_MS }).catch(() => undefined);
}

async function makePrivateDir(host: Host, runId: string, signal: AbortSignal): Promise<string> {
  const safeRunId = runId.replace(/[^A-Za-z0-9-]/g, '-');
  const result = await mustExec(host, ['mktemp', '-d', '-t', `netbench-http-${safeRunId}.XXXXXXXX`], signal);
  const dir = result.stdout.trim();
  if (!PRIVATE_DIR_RE.test(dir)) {
    throw new NetbenchError(`mktemp -d on ${host.name} answered ${JSON.stringify(dir)}, not a directory netbench can use for nginx`);
  }
  return dir;
}

async function mustExec(host: Host, argv: readonly string[], signal: AbortSignal, stdin?: string): Promise<ExecResult> {
  const result = await host.exec(argv, { signal, timeoutMs: SETUP_TIMEOUT_MS, ...(stdin !== undefined ? { stdin } : {}) });
  if (result.code !== 0) {
    throw new NetbenchError(`${argv[0]} on ${host.name} failed (exit ${result.code ?? result.signal}): ${lastLines(result)}`);
  }
  return result;
}

function lastLines(result: ExecResult): string {
  return `${result.stderr}\n${result.stdout}`.trim().split('\n').slice(-3).join(' | ') || `exit code ${result.code}`;
}
