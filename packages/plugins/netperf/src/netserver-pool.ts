import type { Host, HostProcess, Logger } from '@netbench/plugin-api';
import { NetbenchError, RetryableError } from '@netbench/plugin-api';
import { describeReachable, reachablePort } from '@netbench/plugin-api/tool-kit';
import type { PortPair } from './argv.js';

/** PKB's PORT_START: stream i uses control port 20000 + 2i and data port 20000 + 2i + 1. */
export const DEFAULT_BASE_PORT = 20000;
/** Port pairs tried past one already in use before giving up. */
const PORT_ATTEMPTS = 10;
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 3_000;
const STARTING_WAIT_MS = 1_000;
const POLL_MS = 50;
const STARTING_RE = /Starting netserver/;

interface Slot {
  readonly ports: PortPair;
  readonly process: HostProcess;
  exited: boolean;
  leased: boolean;
}

export interface PoolOptions {
  readonly basePort?: number;
  /** Extra netserver arguments, e.g. `['-4']`. */
  readonly family?: readonly string[];
  readonly log?: Logger;
}

/** Port pairs held by one trial; give them back with `release`. */
export interface Lease {
  readonly ports: readonly PortPair[];
  /** Process ids of the leased netservers (same order), when the transport knows them: their per-test children show where the server end runs. */
  readonly pids: readonly (number | undefined)[];
  release(): void;
}

/**
 * The netservers of one server host, one per stream as PKB runs them, so a
 * firewall can open exactly the ports in use. Netservers start on demand
 * (a trial with 4 streams needs 4) and stay up for later trials until `stop`.
 * Trials lease disjoint netservers, so trials running at once never share a
 * fixed data port.
 */
export class NetserverPool {
  private readonly slots: Slot[] = [];
  private nextPort: number;
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly host: Host,
    private readonly options: PoolOptions = {},
  ) {
    this.nextPort = options.basePort ?? DEFAULT_BASE_PORT;
  }

  /** Port pairs of the netservers running now. */
  get ports(): PortPair[] {
    return this.slots.filter((slot) => !slot.exited).map((slot) => slot.ports);
  }

  /** Lease `count` running netservers, starting more when needed. */
  acquire(count: number, signal?: AbortSignal): Promise<Lease> {
    // One start at a time: concurrent trials must not race for the same ports.
    const next = this.queue.then(() => this.lease(count, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async lease(count: number, signal?: AbortSignal): Promise<Lease> {
    if (this.stopped) throw new NetbenchError(`netservers on ${this.host.name} were already stopped`);
    const chosen: Slot[] = [];
    for (const slot of this.slots) {
      if (chosen.length < count && !slot.leased && !slot.exited) chosen.push(slot);
    }
    // On failure, netservers started so far stay in the pool for later trials, unleased.
    while (chosen.length < count) chosen.push(await this.start(signal));
    for (const slot of chosen) slot.leased = true;
    let released = false;
    return {
      ports: chosen.map((slot) => slot.ports),
      pids: chosen.map((slot) => slot.process.pid),
      release: () => {
        if (released) return;
        released = true;
        for (const slot of chosen) slot.leased = false;
      },
    };
  }

  private async start(signal?: AbortSignal): Promise<Slot> {
    let lastError = '';
    for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
      signal?.throwIfAborted();
      const ports = this.reachablePair();
      if (!ports) {
        throw new NetbenchError(
          `netperf needs a control port (TCP) and the data port after it (TCP and UDP) that other hosts can reach on ${this.host.name}, from ${this.options.basePort ?? DEFAULT_BASE_PORT} up, ` +
            `but that host accepts connections only on ${describeReachable(this.host)} (a Kubernetes Service lists its ports: add a \`servicePorts\` range there)`,
        );
      }
      const argv = ['netserver', '-D', ...(this.options.family ?? []), '-p', String(ports.control)];
      const process = this.host.spawn(argv);
      process.stdin.on('error', () => {});
      process.stdin.end();
      const slot: Slot = { ports, process, exited: false, leased: false };
      void process.exited.then(
        () => {
          slot.exited = true;
        },
        () => {
          slot.exited = true;
        },
      );
      const outcome = await this.waitListening(slot, signal);
      if (outcome === 'listening') {
        this.slots.push(slot);
        this.options.log?.debug(`netserver on ${this.host.name} listening on port ${ports.control} (data port ${ports.data})`);
        return slot;
      }
      await stopProcess(process);
      lastError = outcome;
      // A port pair already taken: move on to the next pair, as a person would.
      if (!/Unable to start netserver|Address already in use/i.test(outcome)) break;
    }
    throw new RetryableError(`could not start netserver on ${this.host.name}: ${lastError}`);
  }

  /**
   * The next control/data port pair from `nextPort` that other hosts can reach
   * (`Host.reachablePorts`: a Kubernetes Service forwards only its listed ports),
   * moving `nextPort` past it; undefined when no pair below 65535 is reachable.
   */
  private reachablePair(): PortPair | undefined {
    const tcp = reachablePort(this.host, 'tcp');
    const udp = reachablePort(this.host, 'udp');
    while (this.nextPort < 65_535) {
      const control = this.nextPort;
      this.nextPort += 2;
      if (tcp(control) && tcp(control + 1) && udp(control + 1)) return { control, data: control + 1 };
      if (this.host.reachablePorts === undefined) return { control, data: control + 1 };
    }
    return undefined;
  }

  /** Resolves 'listening' once the control port accepts, else the reason it does not. */
  private async waitListening(slot: Slot, signal?: AbortSignal): Promise<string> {
    const { process, ports } = slot;
    const deadline = Date.now() + START_TIMEOUT_MS;
    let output = '';
    let announced!: () => void;
    const starting = new Promise<void>((resolve) => {
      announced = resolve;
    });
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (STARTING_RE.test(output)) announced();
    };
    process.stdout.on('data', collect);
    process.stderr.on('data', collect);
    const onAbort = () => announced();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (let look = 0; Date.now() < deadline; look += 1) {
        if (signal?.aborted) return 'aborted';
        if (slot.exited) {
          const result = await process.exited;
          return (result.stdout + result.stderr).trim() || `netserver exited with code ${result.code}`;
        }
        // netserver prints its "Starting netserver" line before it binds; ask the kernel instead.
        // The first look goes out with the spawn (over SSH it may well find the port listening).
        const listener = await listenerOf(this.host, ports.control, signal);
        const listening = listener?.listening;
        // Another program's listener on the port is not ours: ours exits ("Unable to start") and the next pair is tried.
        if (listening === true && !slot.exited && (await this.listenerIsOurs(slot, listener.pids, signal))) return 'listening';
        if (listening === undefined && STARTING_RE.test(output)) {
          await delay(300);
          if (!slot.exited) return 'listening';
        }
        // Not yet: the next look waits for that line (or the exit) as an event, not a poll
        // interval; once the line is out, listen is a moment away. Without the
        // line within 1 s, or after it, look again as before.
        if (look === 0) await Promise.race([starting, process.exited.catch(() => undefined), delay(STARTING_WAIT_MS)]);
        else await delay(POLL_MS);
      }
      return `netserver did not listen on port ${ports.control} within ${START_TIMEOUT_MS / 1000} s`;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      process.stdout.off('data', collect);
      process.stderr.off('data', collect);
    }
  }

  /**
   * Whether the process listening on the slot's control port is the netserver
   * just spawned (or a child of it: a wrapper such as sudo). When the kernel
   * does not name the listener (ss without -p rights) or the transport does
   * not know the pid, the listener is taken as ours, as before.
   */
  private async listenerIsOurs(slot: Slot, pids: readonly number[], signal?: AbortSignal): Promise<boolean> {
    const ours = slot.process.pid;
    if (ours === undefined) return true;
    if (pids.length === 0 || pids.includes(ours)) return true;
    for (const pid of pids) {
      if ((await parentPid(this.host, pid, signal)) === ours) return true;
    }
    return false;
  }

  /** Stop every netserver (and the test processes it forked). Idempotent. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.queue.catch(() => undefined);
    await Promise.all(this.slots.map((slot) => stopProcess(slot.process)));
  }
}

/**
 * Whether something listens on a TCP port of the host, with the pids `ss -p`
 * names for it (none when it may not tell); undefined when `ss` is not there.
 */
async function listenerOf(host: Host, port: number, signal?: AbortSignal): Promise<{ listening: boolean; pids: number[] } | undefined> {
  try {
    const result = await host.exec(['ss', '-Hltnp', `sport = :${port}`], { timeoutMs: 5_000, signal });
    if (result.code !== 0) return undefined;
    return { listening: result.stdout.trim() !== '', pids: [...result.stdout.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])) };
  } catch {
    return undefined;
  }
}

/** A process's parent pid from /proc/<pid>/stat (the field after the parenthesised name and state). */
async function parentPid(host: Host, pid: number, signal?: AbortSignal): Promise<number | undefined> {
  try {
    const result = await host.exec(['cat', '--', `/proc/${pid}/stat`], { timeoutMs: 5_000, signal });
    const fields = result.stdout.slice(result.stdout.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    return result.code === 0 && Number.isSafeInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** SIGTERM (to its process group, with the processHost transport), then SIGKILL if it lingers. */
export async function stopProcess(process: HostProcess): Promise<void> {
  process.kill('SIGTERM');
  const exited = await Promise.race([
    process.exited.then(
      () => true,
      () => true,
    ),
    delay(STOP_TIMEOUT_MS).then(() => false),
  ]);
  if (!exited) {
    process.kill('SIGKILL');
    await Promise.race([process.exited.catch(() => undefined), delay(STOP_TIMEOUT_MS)]);
  }
}

// Unref'd: these waits always race a child process, which keeps the loop alive
// while it runs; a pending wait must not hold the CLI open after it exits.
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
