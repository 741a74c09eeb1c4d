import type { Host, ServerHandle } from '@netbench/plugin-api';
import { startToolServerOnFreePort, type ToolServer, type ToolServerOptions } from '@netbench/plugin-api/tool-kit';
import type { PortPool } from './port-pool.js';

interface Slot {
  /** The server's argv with the port left out: trials whose servers would be started the same way share it (none: not shared). */
  readonly key: string | undefined;
  readonly server: ToolServer;
  output: string;
  leased: boolean;
  exited: boolean;
}

/** One trial's use of a server; give it back with `release`. */
export interface ServerLease {
  readonly server: ToolServer;
  /** What the server printed since this lease began. */
  output(): string;
  /** Resolves once the output since the lease matches `pattern`, the server exits, or `maxMs` passes. */
  waitFor(pattern: RegExp, maxMs: number): Promise<void>;
  /** Back to the pool for the next trial that starts its server the same way (`reuse`, a shared server), or stopped now. */
  release(reuse: boolean): Promise<void>;
}

/**
 * The iperf 2 servers of one server host in a run. An iperf 2 server (no
 * one-off mode) serves clients one after another, so a trial leases an idle
 * server started with the same arguments (protocol, window) and gives it back
 * when done; a server that misbehaved is stopped instead. Trials running at
 * once lease different servers, on different ports. `stop` (teardown) stops
 * every server; a lease after it is refused.
 */
export class IperfServerPool implements ServerHandle {
  private readonly slots: Slot[] = [];
  private readonly starting = new Set<Promise<unknown>>();
  private stopping: Promise<void> | undefined;

  constructor(
    readonly host: Host,
    private readonly ports: PortPool,
  ) {}

  get data(): Readonly<Record<string, unknown>> {
    return { ports: this.slots.filter((slot) => !slot.exited).map((slot) => slot.server.port) };
  }

  /** Servers running now (for tests and the handle's data). */
  get running(): number {
    return this.slots.filter((slot) => !slot.exited).length;
  }

  /**
   * An idle server started with `argv` (any port), else a new one on a free
   * port. `shared: false` always starts a new one that no other trial leases;
   * its release stops it.
   */
  async lease(argv: (port: number) => readonly string[], options: ToolServerOptions, signal: AbortSignal, shared = true): Promise<ServerLease> {
    const key = shared ? argv(0).join('\u0000') : undefined;
    let slot = key === undefined ? undefined : this.slots.find((s) => s.key === key && !s.leased && !s.exited);
    if (slot) slot.leased = true;
    else slot = await this.start(key, argv, options, signal);
    return this.leaseOf(slot);
  }

  /** Stop every server and give back their ports. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await Promise.allSettled([...this.starting]);
      await Promise.allSettled([...this.slots].map((slot) => this.drop(slot)));
    })();
    return this.stopping;
  }

  private async start(key: string | undefined, argv: (port: number) => readonly string[], options: ToolServerOptions, signal: AbortSignal): Promise<Slot> {
    if (this.stopping) throw new Error(`iperf servers on ${this.host.name} were already stopped`);
    // The server outlives the trial that started it: `signal` may stop its start, never the
    // running server (a trial's deadline fires later, during another trial's use of it).
    const life = new AbortController();
    const onAbort = () => life.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    const started = startToolServerOnFreePort(this.host, this.ports, argv, options, life.signal);
    this.starting.add(started);
    let server: ToolServer;
    try {
      server = await started;
    } finally {
      this.starting.delete(started);
      signal.removeEventListener('abort', onAbort);
    }
    const slot: Slot = { key, server, output: server.startOutput, leased: true, exited: false };
    const collect = (chunk: Buffer) => {
      slot.output += chunk.toString();
    };
    server.process.stdout.on('data', collect);
    server.process.stderr.on('data', collect);
    void server.process.exited.then(
      () => {
        slot.exited = true;
      },
      () => {
        slot.exited = true;
      },
    );
    this.slots.push(slot);
    // Teardown began while this one started: it must not outlive the run.
    if (this.stopping) {
      await this.drop(slot);
      throw new Error(`iperf servers on ${this.host.name} were already stopped`);
    }
    return slot;
  }

  private leaseOf(slot: Slot): ServerLease {
    const from = slot.output.length;
    let released = false;
    return {
      server: slot.server,
      output: () => slot.output.slice(from),
      waitFor: (pattern, maxMs) =>
        new Promise<void>((resolve) => {
          const { stdout, stderr } = slot.server.process;
          const done = () => {
            clearTimeout(timer);
            stdout.off('data', check);
            stderr.off('data', check);
            resolve();
          };
          // After `collect` (registered first), so the output already holds the chunk.
          const check = () => {
            if (pattern.test(slot.output.slice(from)) || slot.exited) done();
          };
          const timer = setTimeout(done, maxMs);
          timer.unref();
          stdout.on('data', check);
          stderr.on('data', check);
          void slot.server.process.exited.then(done, done);
          check();
        }),
      release: async (reuse) => {
        if (released) return;
        released = true;
        if (reuse && slot.key !== undefined && !slot.exited && !this.stopping) {
          slot.leased = false;
          return;
        }
        await this.drop(slot);
      },
    };
  }

  private async drop(slot: Slot): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    try {
      await slot.server.stop();
    } finally {
      this.ports.release(slot.server.port);
    }
  }
}
