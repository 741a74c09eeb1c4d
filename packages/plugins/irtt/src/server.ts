import type { ExecResult, Host, HostProcess, PluginContext, ServerHandle, ToolInfo } from '@netbench/plugin-api';
import { type PortPool, startToolServerOnFreePort, type ToolServer, type ToolServerOptions } from '@netbench/plugin-api/tool-kit';
import { serverArgv } from './trial-settings.js';

/** irtt listens on UDP; its server stops on SIGTERM (SIGINT too), SIGKILL if it lingers. */
export const IRTT_SERVER: ToolServerOptions = { tool: 'irtt', protocol: 'udp', exitMessage: startFailureMessage };

/** irtt's default port 2112 and the ones above it. */
export const DEFAULT_PORTS = { first: 2112, last: 2199 } as const;

/** The handle `serve` returns: one irtt server on the host for the whole run, every trial its client. */
export class IrttServerHandle implements ServerHandle {
  constructor(
    readonly server: ToolServer,
    private readonly ports: PortPool,
    private readonly key: string,
  ) {}

  get data(): Readonly<Record<string, unknown>> {
    return { port: this.server.port };
  }

  async stop(): Promise<void> {
    if (servers.get(this.key) === this) servers.delete(this.key);
    await this.server.stop();
    this.ports.release(this.server.port);
  }
}

// By run and host, so `run` finds the server even if the engine hands it a wrapper of the handle.
const servers = new Map<string, IrttServerHandle>();
const serverKey = (runId: string, hostId: string) => `${runId}\u0000${hostId}`;

/**
 * Start `irtt server` on a free port of `ports` and return once it is bound,
 * so a missing or blocked irtt fails the prepare phase. The process is the
 * host's (`host.spawn`): the local lab records it for `netbench cleanup`,
 * and teardown stops it with the run's other servers.
 */
export async function serveIrtt(host: Host, _info: ToolInfo, ctx: PluginContext, ports: PortPool): Promise<IrttServerHandle> {
  const server = await startToolServerOnFreePort(host, ports, serverArgv, IRTT_SERVER, ctx.signal);
  const key = serverKey(ctx.runId, host.id);
  const handle = new IrttServerHandle(server, ports, key);
  servers.set(key, handle);
  return handle;
}

/** The process of the server `serve` started on `host` in this run (its affinity is recorded), if any. */
export function servedProcess(runId: string, host: Host): HostProcess | undefined {
  return servers.get(serverKey(runId, host.id))?.server.process;
}

/** The port of the server `serve` started on `host` in this run, if any. */
export function servedPort(handle: ServerHandle | undefined, runId: string, host: Host): number | undefined {
  const port = handle?.data.port;
  if (typeof port === 'number') return port;
  return servers.get(serverKey(runId, host.id))?.server.port;
}

function startFailureMessage(result: ExecResult): string {
  return `${result.stderr}\n${result.stdout}`.trim().split('\n').slice(-3).join(' | ') || `exit code ${result.code}`;
}
