import type { Host, HostProcess, PluginContext, ServerHandle } from '@netbench/plugin-api';
import { RetryableError } from '@netbench/plugin-api';

export const FIRST_PORT = 11111;
const PORT_ATTEMPTS = 20;
const READY_RE = /using \w+\(\) to block on socket|Waiting for events/;
const BIND_RE = /Can`t bind socket|Address already in use/;
const START_TIMEOUT_MS = 10_000;

interface Started {
  readonly process: HostProcess;
  stop(): Promise<void>;
}

/** Start one `sockperf server` and resolve once it waits for messages; reject when it cannot bind. */
function startServer(host: Host, port: number, tcp: boolean, signal: AbortSignal): Promise<Started> {
  const argv = ['sockperf', 'server', '-i', host.internalIp, '-p', String(port), ...(tcp ? ['--tcp'] : [])];
  const proc = host.spawn(argv, { signal });
  proc.stdin.on('error', () => {});
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 2_000);
      await proc.exited.catch(() => {});
      clearTimeout(timer);
    })();
    return stopping;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new RetryableError(`sockperf server on ${host.name}:${port} did not start within ${START_TIMEOUT_MS / 1000} s: ${output.trim()}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (READY_RE.test(output)) {
        clearTimeout(timer);
        resolve({ process: proc, stop });
      } else if (BIND_RE.test(output)) {
        clearTimeout(timer);
        void stop();
        reject(new PortBusy(port));
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.exited.then(
      (result) => {
        clearTimeout(timer);
        reject(BIND_RE.test(output) ? new PortBusy(port) : new Error(`sockperf server exited with ${String(result.code)}: ${output.trim()}`));
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

class PortBusy extends RetryableError {
  constructor(readonly port: number) {
    super(`port ${port} is in use`);
  }
}

/**
 * The server side: a UDP and a TCP `sockperf server` on the same port of the
 * host's internal address, the first free one from 11111. The client reads
 * the port from `data.port`. `stop` is idempotent.
 */
export async function serveSockperf(host: Host, ctx: PluginContext): Promise<ServerHandle> {
  for (let port = FIRST_PORT; port < FIRST_PORT + PORT_ATTEMPTS; port++) {
    let udp: Started | undefined;
    try {
      udp = await startServer(host, port, false, ctx.signal);
      const tcp = await startServer(host, port, true, ctx.signal);
      const servers = [udp, tcp];
      return { data: { port }, stop: async () => void (await Promise.all(servers.map((s) => s.stop()))) };
    } catch (error) {
      await udp?.stop();
      if (!(error instanceof PortBusy)) throw error;
      ctx.log.debug(`sockperf: port ${port} is busy on ${host.name}, trying ${port + 1}`);
    }
  }
  throw new RetryableError(`no free port for sockperf server on ${host.name} in ${FIRST_PORT}-${FIRST_PORT + PORT_ATTEMPTS - 1}`);
}
