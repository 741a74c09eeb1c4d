// Two real hosts for a tool plugin's tests: two network namespaces joined by
// a veth pair, with a `Host` in each. Traffic between them never leaves the
// machine, yet crosses a real network stack (unlike loopback), so a tool's
// client and server see distinct addresses as they would between machines.
// Needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN) and `ip` from iproute2.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Host } from '../plugin/host.js';
import { processHost } from '../transport/process-host.js';

export interface TwoHostLabOptions {
  /** A short word (lower-case letters, digits, `-`) in the namespace names, so a leftover says whose it is. Default `lab`. */
  readonly tag?: string;
  /**
   * The first three octets of the /24 the two hosts share, e.g. `10.213.27`:
   * client `.1`, server `.2`. Each lab is its own island (the root namespace
   * has no route into it), so parallel labs may use the same one. Default `10.213.0`.
   */
  readonly subnet?: string;
  /** Argv put between `ip netns exec <ns>` and every command, e.g. `['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']` to run as nobody. */
  readonly hostPrefix?: readonly string[];
}

export interface TwoHostLab {
  readonly client: Host;
  readonly server: Host;
  readonly clientIp: string;
  readonly serverIp: string;
  /** An address in the subnet with a neighbour entry on the client side but no host: what is sent there vanishes (loss, timeouts). */
  readonly silentIp: string;
  readonly clientNs: string;
  readonly serverNs: string;
  /** Pids of the processes running in a namespace of this lab right now. */
  pids(ns: string): number[];
  /** Command lines (argv joined by spaces) of the processes running in a namespace of this lab right now. */
  commands(ns: string): string[];
  /** Kill every process in both namespaces, wait until they are gone, delete the namespaces. Idempotent. */
  close(): Promise<void>;
}

const run = promisify(execFile);
const ipSync = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Labs of this process that are not closed yet: removed on exit should a test forget close().
const open = new Set<() => void>();
let exitHookInstalled = false;
let labCount = 0;

/** Create two namespaces joined by a veth pair, with a `Host` in each. Close it in `afterAll`. */
export async function twoHostLab(options: TwoHostLabOptions = {}): Promise<TwoHostLab> {
  const tag = options.tag ?? 'lab';
  if (!/^[a-z0-9-]{1,20}$/.test(tag)) throw new Error(`twoHostLab: tag ${JSON.stringify(tag)} must be 1-20 of a-z, 0-9, -`);
  const subnet = options.subnet ?? '10.213.0';
  const octets = subnet.split('.');
  if (octets.length !== 3 || !octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)) {
    throw new Error(`twoHostLab: subnet ${JSON.stringify(subnet)} must be three octets, e.g. 10.213.0`);
  }

  // pid (other test files, other processes), a counter (other labs of this file) and
  // random letters (a leftover of a crashed process whose pid is reused): never a collision.
  labCount += 1;
  const id = `${process.pid.toString(36)}${labCount.toString(36)}${randomBytes(2).toString('hex')}`;
  const clientNs = `nbt-${tag}-${id}-c`;
  const serverNs = `nbt-${tag}-${id}-s`;
  // Interface names have at most 15 characters; these live in the root namespace only briefly.
  const vethClient = `nb${id}c`;
  const vethServer = `nb${id}s`;
  const clientIp = `${subnet}.1`;
  const serverIp = `${subnet}.2`;
  const silentIp = `${subnet}.99`;
  const own = new Set([clientNs, serverNs]);

  const pids = (ns: string): number[] => {
    if (!own.has(ns)) throw new Error(`twoHostLab: ${ns} is not a namespace of this lab (${clientNs}, ${serverNs})`);
    try {
      return ipSync('netns', 'pids', ns).split('\n').filter(Boolean).map(Number);
    } catch {
      return []; // closed, or never created
    }
  };
  const commands = (ns: string): string[] =>
    pids(ns).flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()];
      } catch {
        return []; // exited meanwhile
      }
    });
  const killAll = () => {
    const left = [...own].flatMap(pids);
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* exited meanwhile */
      }
    }
    return left.length;
  };
  const deleteNamespaces = () => {
    for (const ns of own) {
      try {
        ipSync('netns', 'del', ns);
      } catch {
        /* never created or already gone */
      }
    }
    // The veth pair dies with its namespaces; this only matters when setup failed before moving it.
    try {
      ipSync('link', 'del', vethClient);
    } catch {
      /* not in the root namespace */
    }
  };
  // Synchronous, for process exit, where nothing asynchronous runs any more.
  const removeNow = () => {
    killAll();
    deleteNamespaces();
  };

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // Kill until nothing is left: a dying server may have forked a child meanwhile.
      for (let i = 0; i < 100 && killAll() > 0; i += 1) await sleep(20);
      deleteNamespaces();
      open.delete(removeNow);
    })();
    return closing;
  };

  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const remove of open) remove();
    });
  }
  open.add(removeNow);
  const ip = (...args: string[]) => run('ip', args);
  try {
    await ip('netns', 'add', clientNs);
    await ip('netns', 'add', serverNs);
    await ip('link', 'add', vethClient, 'type', 'veth', 'peer', 'name', vethServer);
    await ip('link', 'set', vethClient, 'netns', clientNs);
    await ip('link', 'set', vethServer, 'netns', serverNs);
    await ip('-n', clientNs, 'addr', 'add', `${clientIp}/24`, 'dev', vethClient);
    await ip('-n', serverNs, 'addr', 'add', `${serverIp}/24`, 'dev', vethServer);
    for (const [ns, dev] of [
      [clientNs, vethClient],
      [serverNs, vethServer],
    ] as const) {
      await ip('-n', ns, 'link', 'set', 'lo', 'up');
      await ip('-n', ns, 'link', 'set', dev, 'up');
    }
    await ip('-n', clientNs, 'neigh', 'add', silentIp, 'lladdr', '02:00:00:00:00:99', 'dev', vethClient, 'nud', 'permanent');
  } catch (error) {
    await close();
    const stderr = (error as { stderr?: unknown }).stderr;
    const why = typeof stderr === 'string' && stderr.trim() ? stderr.trim() : String(error);
    throw new Error(`twoHostLab: could not create network namespaces (needs root and iproute2): ${why}`, { cause: error });
  }

  const host = (name: string, ns: string, address: string) =>
    processHost({ id: name, name, cloud: 'local', internalIp: address, prefix: ['ip', 'netns', 'exec', ns, ...(options.hostPrefix ?? [])] });
  return {
    client: host('client', clientNs, clientIp),
    server: host('server', serverNs, serverIp),
    clientIp,
    serverIp,
    silentIp,
    clientNs,
    serverNs,
    pids,
    commands,
    close,
  };
}
