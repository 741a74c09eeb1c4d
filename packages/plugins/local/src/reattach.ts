import { appendFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { Host, HostRequest, LedgerEntry, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError, pendingResources, processHost } from '@netbench/plugin-api';
import { runCommand } from '@netbench/plugin-api/cloud-kit';
import type { LocalHostConfig } from './host-schema.js';
import { ipIn } from './ip-batch.js';
import { namespaceHost, PLUGIN_NAME } from './namespace-host.js';
import { linkAlias } from './naming.js';
import { osRelease } from './os-release.js';
import { isSameProcessAlive, processStartTimeSync, terminate } from './processes.js';
import { hubOf, readPidFile } from './teardown.js';

/**
 * The hosts an earlier process of this run made, from the ledger: each
 * namespace must still exist with the address it was given, its veth must
 * still carry this run's alias and its sshd (if any) must be the same
 * process. Creates nothing; the host gets the labels it had at provision.
 * Processes an earlier, killed invocation left on a host are stopped first.
 */
export async function reattachLab(requests: readonly HostRequest<LocalHostConfig>[], ctx: ProvisionContext): Promise<Host[]> {
  const pending = pendingResources(ctx.ledger.entries);
  const os = await osRelease();
  const hosts: Host[] = [];
  for (const request of requests) hosts.push(await reattachHost(request, pending, ctx, os));
  return hosts;
}

async function reattachHost(request: HostRequest<LocalHostConfig>, pending: readonly LedgerEntry[], ctx: ProvisionContext, os: string | undefined): Promise<Host> {
  const find = (type: string, id?: string) => pending.find((e) => e.resource.type === type && e.resource.host === request.id && (id === undefined || e.resource.id === id));
  const spawned = find('process', `spawned@${request.id}`);
  const pidFile = spawned?.resource.data?.pidFile;
  if (!spawned || typeof pidFile !== 'string')
    throw new NetbenchError(`local: the ledger of run ${ctx.runId} has no host ${request.id} (it was never provisioned, or was torn down)`);
  const onSpawn = (pid: number) => {
    try {
      appendFileSync(pidFile, `${pid} ${processStartTimeSync(pid) ?? ''}\n`);
    } catch {
      // The run folder is gone; the namespace teardown still stops the process.
    }
  };
  // What an earlier invocation started and left running (it was killed; one that ended stopped its own):
  // servers and clients of a cut-off trial would share the hosts with the trials about to run.
  const left = await terminate(await readPidFile(pidFile));
  if (left.length > 0)
    ctx.log.warn(
      `local: host ${request.id}: stopped ${left.length} process${left.length === 1 ? '' : 'es'} an earlier invocation of run ${ctx.runId} left running (pids ${left.join(', ')})`,
    );
  const netnsEntry = find('netns');
  if (!netnsEntry) {
    return processHost({
      id: request.id,
      name: request.name,
      cloud: PLUGIN_NAME,
      zone: 'local',
      machineType: 'loopback',
      internalIp: '127.0.0.1',
      os,
      labels: { isolation: 'loopback', cpu_count: String(availableParallelism()) },
      onSpawn,
    });
  }
  const netns = netnsEntry.resource.id;
  const veth = find('veth');
  if (!veth) throw new NetbenchError(`local: host ${request.id}: the ledger has namespace ${netns} but no veth`);
  const address = await namespaceAddress(netns);
  if (!address) throw new NetbenchError(`local: host ${request.id}: namespace ${netns} is gone or has no address on eth0`);
  const recorded = veth.resource.data?.address;
  if (typeof recorded === 'string' && address !== recorded) {
    throw new NetbenchError(`local: host ${request.id}: namespace ${netns} has address ${address}, but it was provisioned with ${recorded}: it was changed or replaced`);
  }
  // The veth's bridge end is in the hub namespace (a lab from before the hub: in this one); a hub name not of ours is refused.
  const hub = hubOf(veth.resource, 'hub', 'use');
  const alias = await linkField(ipIn(hub, '-j', 'link', 'show', 'dev', veth.resource.id), 'ifalias');
  if (alias !== linkAlias(ctx.runId)) throw new NetbenchError(`local: host ${request.id}: ${veth.resource.id} is gone or no longer belongs to run ${ctx.runId}`);

  let ssh: { clientKey: string; knownHosts: string } | undefined;
  if (request.config.sshd) {
    const sshd = find('process', `sshd@${netns}`);
    const { pid, startTime, config } = sshd?.resource.data ?? {};
    if (typeof pid !== 'number' || typeof config !== 'string' || !(await isSameProcessAlive(pid, typeof startTime === 'string' ? startTime : undefined))) {
      throw new NetbenchError(`local: host ${request.id}: its sshd is no longer running`);
    }
    const dir = dirname(config);
    ssh = { clientKey: join(dir, 'id_ed25519'), knownHosts: join(dir, 'known_hosts') };
  }
  return namespaceHost({ request, netns, address, os, onSpawn, congestionControl: 'verify', ...(ssh ? { ssh } : {}) });
}

async function linkField(argv: string[], field: string): Promise<string | undefined> {
  const result = await runCommand(argv);
  if (result.code !== 0) return undefined;
  try {
    const [link] = JSON.parse(result.stdout) as Record<string, unknown>[];
    const value = link?.[field];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

async function namespaceAddress(netns: string): Promise<string | undefined> {
  const result = await runCommand(['ip', '-n', netns, '-j', '-4', 'addr', 'show', 'dev', 'eth0']);
  if (result.code !== 0) return undefined;
  try {
    const [link] = JSON.parse(result.stdout) as { addr_info?: { local?: string }[] }[];
    return link?.addr_info?.[0]?.local;
  } catch {
    return undefined;
  }
}
