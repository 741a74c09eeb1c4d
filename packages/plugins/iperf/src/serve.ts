import type { Host, PluginContext, ServerHandle, ToolInfo } from '@netbench/plugin-api';
import type { PortPool } from './port-pool.js';
import { iperfServerOptions } from './server.js';
import { IperfServerPool } from './server-pool.js';
import { serverArgv } from './trial-settings.js';

// Pools by run and host, so `run` finds the pool even if the engine hands it
// a wrapper of the handle rather than the object `serve` returned.
const pools = new Map<string, IperfServerPool>();
const poolKey = (runId: string, hostId: string) => `${runId}\u0000${hostId}`;

/** The handle `serve` returns: the host's iperf server pool. */
export class IperfServersHandle implements ServerHandle {
  constructor(
    readonly pool: IperfServerPool,
    private readonly key: string,
  ) {}

  get data(): Readonly<Record<string, unknown>> {
    return this.pool.data;
  }

  async stop(): Promise<void> {
    if (pools.get(this.key) === this.pool) pools.delete(this.key);
    await this.pool.stop();
  }
}

/** The pool `serve` made for a host in this run, if any. */
export function findServerPool(handle: ServerHandle | undefined, runId: string, host: Host): IperfServerPool | undefined {
  if (handle instanceof IperfServersHandle) return handle.pool;
  return pools.get(poolKey(runId, host.id));
}

/**
 * In prepare, once per server host: the host's server pool, with its most
 * common server (TCP, default window) already listening, so trials on it start
 * their clients at once and a missing or blocked iperf fails the prepare
 * phase. Trials needing another TCP server (a window) start it on first use;
 * later trials reuse it; UDP and reverse trials get one of their own (see
 * run.ts); all stop with the handle in teardown.
 */
export function serveIperf(ports: PortPool) {
  return async (host: Host, _info: ToolInfo, ctx: PluginContext): Promise<ServerHandle> => {
    const pool = new IperfServerPool(host, ports);
    try {
      const lease = await pool.lease((port) => serverArgv({ protocol: 'tcp' }, port), iperfServerOptions('tcp'), ctx.signal);
      await lease.release(true);
    } catch (error) {
      await pool.stop();
      throw error;
    }
    const key = poolKey(ctx.runId, host.id);
    pools.set(key, pool);
    return new IperfServersHandle(pool, key);
  };
}
