import { execFileSync } from 'node:child_process';
import { processHost } from '@netbench/core';
import type { Host } from '@netbench/core';

/** Two namespaces joined by a veth pair, with a `Host` in each. Root only. */
export interface NetnsLab {
  readonly client: Host;
  readonly server: Host;
  readonly clientNs: string;
  readonly serverNs: string;
  readonly clientIp: string;
  readonly serverIp: string;
  /** An address in the lab's subnet with a neighbour entry on the client side but no host: requests vanish. */
  readonly silentIp: string;
  /** Pids of processes running in a namespace right now. */
  pids(ns: string): number[];
  /** Command lines of processes running in a namespace right now. */
  commands(ns: string): string[];
  /** Kill what runs in the namespaces and delete them. Idempotent. */
  destroy(): void;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

export function createNetnsLab(tag: string, subnet: string, options: { hostPrefix?: readonly string[] } = {}): NetnsLab {
  // nbt-import-<pid>-<tag>-a (client) and -b (server): pid and tag, so parallel test files and reruns never collide.
  const clientNs = `nbt-import-${process.pid}-${tag}-a`;
  const serverNs = `nbt-import-${process.pid}-${tag}-b`;
  const vethClient = `nb${tag.slice(0, 2)}${process.pid}a`.slice(0, 15);
  const vethServer = `nb${tag.slice(0, 2)}${process.pid}b`.slice(0, 15);
  const clientIp = `${subnet}.1`;
  const serverIp = `${subnet}.2`;
  const silentIp = `${subnet}.99`;

  const pids = (ns: string) =>
    ip('netns', 'pids', ns).split('\n').filter(Boolean).map(Number);
  const commands = (ns: string) =>
    pids(ns).flatMap((pid) => {
      try {
        return [execFileSync('cat', [`/proc/${pid}/cmdline`]).toString().split('\0').join(' ').trim()];
      } catch {
        return []; // exited meanwhile
      }
    });
  let destroyed = false;
  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    for (const ns of [clientNs, serverNs]) {
      try {
        for (const pid of pids(ns)) process.kill(pid, 'SIGKILL');
      } catch {
        // namespace never created or already empty
      }
      try { ip('netns', 'del', ns); } catch { /* already gone */ }
    }
  };

  try {
    ip('netns', 'add', clientNs);
    ip('netns', 'add', serverNs);
    ip('link', 'add', vethClient, 'type', 'veth', 'peer', 'name', vethServer);
    ip('link', 'set', vethClient, 'netns', clientNs);
    ip('link', 'set', vethServer, 'netns', serverNs);
    ip('-n', clientNs, 'addr', 'add', `${clientIp}/24`, 'dev', vethClient);
    ip('-n', serverNs, 'addr', 'add', `${serverIp}/24`, 'dev', vethServer);
    for (const [ns, dev] of [[clientNs, vethClient], [serverNs, vethServer]] as const) {
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      ip('-n', ns, 'link', 'set', dev, 'up');
    }
    ip('-n', clientNs, 'neigh', 'add', silentIp, 'lladdr', '02:00:00:00:00:99', 'dev', vethClient, 'nud', 'permanent');
  } catch (error) {
    destroy();
    throw error;
  }

  const host = (name: string, ns: string, address: string) =>
    processHost({ id: name, name, cloud: 'local', internalIp: address, prefix: ['ip', 'netns', 'exec', ns, ...(options.hostPrefix ?? [])] });
  return {
    client: host('client', clientNs, clientIp),
    server: host('server', serverNs, serverIp),
    clientNs,
    serverNs,
    clientIp,
    serverIp,
    silentIp,
    pids,
    commands,
    destroy,
  };
}
