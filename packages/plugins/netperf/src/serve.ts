import type { Host, PluginContext, ServerHandle, ToolInfo } from '@netbench/plugin-api';
import { DEFAULT_BASE_PORT, NetserverPool } from './netserver-pool.js';

// Pools by run and host, so `run` finds the pool even if the engine hands it
// a wrapper of the handle rather than the object `serve` returned.
const pools = new Map<string, NetserverPool>();
const poolKey = (runId: string, hostId: string) => `${runId}\u0000${hostId}`;

/** The handle `serve` returns: the host's netserver pool. */
export class NetserverHandle implements ServerHandle {
  constructor(
    readonly pool: NetserverPool,
    private readonly key: string,
  ) {}

  get data(): Readonly<Record<string, unknown>> {
    return { basePort: DEFAULT_BASE_PORT, ports: this.pool.ports.map((pair) => ({ ...pair })) };
  }

  async stop(): Promise<void> {
    if (pools.get(this.key) === this.pool) pools.delete(this.key);
    await this.pool.stop();
  }
}

/** The pool `serve` started on a host in this run, if any. */
export function findPool(handle: ServerHandle | undefined, runId: string, host: Host): NetserverPool | undefined {
  if (handle instanceof NetserverHandle) return handle.pool;
  return pools.get(poolKey(runId, host.id));
}

/** netserver listens on IPv4 only (`-4`) unless the host has an IPv6 address, then on both families. */
export function familyArgs(host: Host): string[] {
  return [host.internalIp, host.externalIp].some((ip) => ip?.includes(':')) ? [] : ['-4'];
}

/**
 * Start the server host's first netserver (control port 20000, data port
 * 20001) and wait until it accepts, so a missing or blocked netserver fails
 * the prepare phase. Trials with more streams start more netservers (one per
 * stream, PKB's port layout) on demand; all stop with the handle.
 */
export async function serveNetperf(host: Host, _info: ToolInfo, ctx: PluginContext): Promise<ServerHandle> {
  const pool = new NetserverPool(host, { family: familyArgs(host), log: ctx.log });
  try {
    (await pool.acquire(1, ctx.signal)).release();
  } catch (error) {
    await pool.stop();
    throw error;
  }
  const key = poolKey(ctx.runId, host.id);
  pools.set(key, pool);
  return new NetserverHandle(pool, key);
}
