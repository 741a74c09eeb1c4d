import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { LedgerResource } from '@netbench/plugin-api';
import { ALLOWED_CONGESTION_CONTROL_RESOURCE, runCommand, teardownAllowedCongestionControl } from '@netbench/plugin-api/cloud-kit';
import { deleteForwardRule } from './forward-rule.js';
import { batchLines, ipBatchEach, ipIn } from './ip-batch.js';
import { BRIDGE_RE, HUB_RE, NETNS_RE, runIdFromAlias, VETH_RE } from './naming.js';
import { findProcesses, type ProcessRef, processState, terminate } from './processes.js';

/** Resource kinds this plugin records. */
export type LocalResourceType = 'bridge' | 'netns' | 'veth' | 'process' | 'firewall' | 'sysctl';

const FORWARD_ID_RE = /^forward:(nb[a-z0-9]{6}br)$/;

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const toError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
const linkExists = async (name: string, netns?: string) => (await runCommand(ipIn(netns, 'link', 'show', 'dev', name))).code === 0;

/** The run id in an interface's alias, `null` when it has none, `undefined` when it is gone. */
async function linkOwner(name: string, netns?: string): Promise<string | null | undefined> {
  const result = await runCommand(ipIn(netns, '-j', 'link', 'show', 'dev', name));
  if (result.code !== 0) return undefined;
  const [link] = JSON.parse(result.stdout) as { ifalias?: string }[];
  return runIdFromAlias(link?.ifalias) ?? null;
}
/**
 * Whether this process's network namespace has no interface of that name.
 * `/proc/self/net/dev` lists the reading process's own namespace (unlike
 * `/sys/class/net`, which shows the namespace `/sys` was mounted in); when it
 * cannot be read the answer is "not known to be absent".
 */
export async function linkAbsent(name: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile('/proc/self/net/dev', 'utf8');
  } catch {
    return false;
  }
  return !text.split('\n').some((line) => line.trimStart().startsWith(`${name}:`));
}
const netnsExists = (name: string) => existsSync(`/run/netns/${name}`);

/**
 * Delete an interface; one that is not there is success. One whose alias names
 * another run is left alone: its 6-character tag collided with ours.
 */
export async function deleteLink(name: string, runId?: string, netns?: string): Promise<void> {
  // Gone already, with no `ip` process needed to tell: its namespace (the hub) was deleted,
  // or, in this process's own namespace, it is not listed (a veth whose peer's namespace went).
  if (netns !== undefined ? !netnsExists(netns) : await linkAbsent(name)) return;
  const owner = await linkOwner(name, netns);
  if (owner === undefined) return;
  // Ours was never made (creating it failed on the name), so there is nothing of ours to delete.
  if (runId !== undefined && owner !== null && owner !== runId) return;
  const result = await runCommand(ipIn(netns, 'link', 'del', 'dev', name));
  // A veth vanishes with its peer's namespace, possibly between our check and the delete.
  if (result.code !== 0 && (await linkExists(name, netns))) throw new Error(`ip ${netns !== undefined ? `-n ${netns} ` : ''}link del ${name}: ${result.stderr.trim()}`);
}

/** Processes inside a namespace, by `ip netns pids` (when /proc cannot be read), with start times so a reused pid is never hit. */
async function namespacePids(name: string): Promise<ProcessRef[]> {
  const result = await runCommand(['ip', 'netns', 'pids', name]);
  if (result.code !== 0) return [];
  const refs: ProcessRef[] = [];
  for (const pid of result.stdout
    .split(/\s+/)
    .filter((p) => /^\d+$/.test(p))
    .map(Number)) {
    const state = await processState(pid);
    if (state) refs.push({ pid, startTime: state.startTime });
  }
  return refs;
}

/** A namespace's identity: the dev and inode of its file (or of `/proc/PID/ns/net`, whose stat follows the link); `undefined` when it cannot be read. */
function namespaceKey(path: string): string | undefined {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined; // EACCES, ESRCH: a process being torn down, or one we may not look into
  }
}

/**
 * The processes inside each namespace, found as `ip netns pids` finds them
 * but in one pass of /proc for all of them, with no `ip` process: a process
 * is inside when `/proc/PID/ns/net` has the dev and inode of
 * `/run/netns/NAME`. Each match gets its start time and is then looked at
 * once more, so a pid that was reused meanwhile by a process elsewhere is
 * dropped (and `terminate` signals only that start time). Processes that
 * vanish during the scan are skipped. The stats are synchronous: a few µs
 * each, as `ip netns pids` does them, where an asynchronous stat costs more
 * than the scan. When /proc cannot be listed, it asks `ip netns pids`.
 */
export async function namespacesPids(names: readonly string[]): Promise<Map<string, ProcessRef[]>> {
  const found = new Map<string, ProcessRef[]>(names.map((name) => [name, []]));
  const byKey = new Map<string, string[]>();
  for (const name of found.keys()) {
    const key = namespaceKey(`/run/netns/${name}`);
    if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), name]);
  }
  if (byKey.size === 0) return found;
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    await Promise.all([...byKey.values()].flat().map(async (name) => void found.set(name, await namespacePids(name))));
    return found;
  }
  const matches: { pid: number; key: string }[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const key = namespaceKey(`/proc/${entry}/ns/net`);
    if (key !== undefined && byKey.has(key)) matches.push({ pid: Number(entry), key });
  }
  for (const { pid, key } of matches) {
    const state = await processState(pid);
    if (!state || namespaceKey(`/proc/${pid}/ns/net`) !== key) continue;
    for (const name of byKey.get(key)!) found.get(name)!.push({ pid, startTime: state.startTime });
  }
  return found;
}

/**
 * Stop everything running inside the namespaces, then delete them (their
 * links go with them): one scan of /proc finds the processes, one
 * `ip -force -batch -` deletes every namespace left, so three namespaces cost
 * one `ip` process instead of six. A namespace already gone is success and is
 * not in the batch; with none left there is no process at all. `-force` goes
 * on past a line that fails; a namespace whose file is still there afterwards
 * gets its own error with `ip`'s message. The names' patterns are the
 * caller's to check; a name `ip -batch` would not read as one word gets an
 * error and is left alone. One outcome per name, in order.
 */
export async function deleteNetnsMany(names: readonly string[]): Promise<(Error | undefined)[]> {
  const errors = new Map<string, Error>();
  const present = [...new Set(names)].filter((name) => {
    if (!netnsExists(name)) return false;
    try {
      batchLines([['netns', 'del', name]]);
      return true;
    } catch (error) {
      errors.set(name, toError(error));
      return false;
    }
  });
  const pids = await namespacesPids(present);
  await Promise.all(
    present.map(async (name) => {
      try {
        await terminate(pids.get(name) ?? [], 1000);
      } catch (error) {
        errors.set(name, toError(error)); // something inside survived SIGKILL: leave its namespace
      }
    }),
  );
  // Gone meanwhile is success too; `ip` would only complain about it.
  const batch = present.filter((name) => !errors.has(name) && netnsExists(name));
  if (batch.length > 0) {
    const outcomes = await ipBatchEach(
      batch.map((name) => ['netns', 'del', name]),
      { force: true },
    );
    batch.forEach((name, i) => {
      const failed = outcomes[i];
      if (!failed || !netnsExists(name)) return;
      // `ip netns del NAME failed (exit 1): MESSAGE`, ip's message for that line.
      errors.set(name, failed);
    });
  }
  return names.map((name) => errors.get(name));
}

/** Stop everything running inside, then delete the namespace (its eth0 goes with it). */
export async function deleteNetns(name: string): Promise<void> {
  const [error] = await deleteNetnsMany([name]);
  if (error) throw error;
}

/** `sshd: /usr/sbin/sshd -D -e -f <config> [listener] ...`: sshd rewrites its title, so match on the joined argv. */
export async function findSshd(config: string) {
  const needle = `-f ${config}`;
  return findProcesses((argv) => {
    const line = argv.join(' ');
    return line.includes('sshd') && (line.endsWith(needle) || line.includes(`${needle} `));
  });
}

/** The processes a host's `onSpawn` recorded (pid and start time), each to be signalled with its group. */
export async function readPidFile(path: string): Promise<ProcessRef[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  const refs: ProcessRef[] = [];
  for (const line of text.split('\n')) {
    const [pid, startTime] = line.trim().split(/\s+/);
    if (pid && /^\d+$/.test(pid)) refs.push({ pid: Number(pid), startTime: startTime || undefined, group: true });
  }
  return refs;
}

/**
 * Stop the processes a `process` resource stands for: a pid with its start
 * time, every sshd started with a given config file, and every process listed
 * in a pid file (what the host's `onSpawn` recorded).
 */
export async function stopProcesses(resource: LedgerResource): Promise<void> {
  const data = resource.data ?? {};
  const refs: ProcessRef[] = [];
  if (typeof data.pid === 'number') refs.push({ pid: data.pid, startTime: str(data.startTime) });
  const config = str(data.config);
  if (config) for (const proc of await findSshd(config)) refs.push({ pid: proc.pid, startTime: proc.startTime });
  const pidFile = str(data.pidFile);
  if (pidFile) refs.push(...(await readPidFile(pidFile)));
  const unique = new Map(refs.map((ref) => [ref.pid, ref]));
  await terminate([...unique.values()]);
}

/**
 * The hub namespace a link's entry names (`undefined`: a lab whose bridge was
 * in the machine's own namespace). Only a hub name of ours is accepted, so a
 * damaged ledger cannot point deletes at another namespace.
 */
export function hubOf(resource: LedgerResource, field: 'hub' | 'netns', action: 'delete' | 'use' = 'delete'): string | undefined {
  const hub = str(resource.data?.[field]);
  if (hub === undefined) return undefined;
  if (!HUB_RE.test(hub)) throw new Error(`local: refusing to ${action} ${resource.type} ${JSON.stringify(resource.id)} in namespace ${JSON.stringify(hub)}: not a netbench hub`);
  return hub;
}

const refusal = (resource: LedgerResource) => new Error(`local: refusing to delete ${resource.type} ${JSON.stringify(resource.id)}: not a netbench name`);

/** Delete one ledger resource. Works from the entry alone; gone already = success. */
export async function teardownResource(resource: LedgerResource): Promise<void> {
  // Names are checked against our own patterns, so a damaged ledger can never delete `eth0`.
  const refuse = () => refusal(resource);
  switch (resource.type) {
    case 'process':
      return stopProcesses(resource);
    case 'veth':
      if (!VETH_RE.test(resource.id)) throw refuse();
      return deleteLink(resource.id, str(resource.data?.runId), hubOf(resource, 'hub'));
    case 'bridge':
      if (!BRIDGE_RE.test(resource.id)) throw refuse();
      return deleteLink(resource.id, str(resource.data?.runId), hubOf(resource, 'netns'));
    case 'netns':
      if (!NETNS_RE.test(resource.id)) throw refuse();
      return deleteNetns(resource.id);
    case 'firewall': {
      const bridge = FORWARD_ID_RE.exec(resource.id)?.[1];
      const runId = str(resource.data?.runId);
      if (!bridge || !runId) throw refuse();
      return deleteForwardRule(bridge, runId);
    }
    case ALLOWED_CONGESTION_CONTROL_RESOURCE:
      await teardownAllowedCongestionControl('local', resource);
      return;
    default:
      throw new Error(`local: unknown resource type ${resource.type}`);
  }
}

/**
 * Delete a batch of this plugin's ledger resources (newest first, as the
 * engine hands them to `teardownMany`), in three steps instead of one after
 * another: the processes (they may keep a namespace alive); then the
 * namespaces (the hosts' and the hub's) all together, by `deleteNetnsMany`
 * (one scan of /proc, one `ip -batch`), and any FORWARD rule of an older lab
 * at once, with the other kinds (sysctl lists, read and rewritten) one after
 * another beside them; then the links. Deleting the hub's namespace takes the bridge
 * and the veths with it (asynchronously, in the kernel), so by the third step
 * a link is gone when its namespace is: it is looked at and deleted on its
 * own only if that namespace is still there (it was not in the batch, or an
 * older lab's bridge in the machine's namespace). One outcome per resource,
 * in order: `undefined` when it is gone.
 */
export async function teardownResources(resources: readonly LedgerResource[]): Promise<(Error | undefined)[]> {
  const outcomes: (Error | undefined)[] = resources.map(() => undefined);
  const attempt = async (i: number) => {
    try {
      await teardownResource(resources[i]!);
    } catch (error) {
      outcomes[i] = toError(error);
    }
  };
  const indexes = (test: (type: string) => boolean) => resources.flatMap((r, i) => (test(r.type) ? [i] : []));
  const links = new Set(['veth', 'bridge']);
  const atOnce = new Set(['netns', 'firewall']);
  await Promise.all(indexes((t) => t === 'process').map(attempt));
  const inTurn = async () => {
    for (const i of indexes((t) => t !== 'process' && !links.has(t) && !atOnce.has(t))) await attempt(i);
  };
  const namespaces = async () => {
    const valid = indexes((t) => t === 'netns').filter((i) => {
      if (NETNS_RE.test(resources[i]!.id)) return true;
      outcomes[i] = refusal(resources[i]!);
      return false;
    });
    if (valid.length === 0) return;
    try {
      const errors = await deleteNetnsMany(valid.map((i) => resources[i]!.id));
      valid.forEach((i, k) => {
        outcomes[i] = errors[k];
      });
    } catch (error) {
      for (const i of valid) outcomes[i] = toError(error);
    }
  };
  await Promise.all([namespaces(), ...indexes((t) => t === 'firewall').map(attempt), inTurn()]);
  await Promise.all(indexes((t) => links.has(t)).map(attempt));
  return outcomes;
}
