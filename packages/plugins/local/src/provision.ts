import { availableParallelism } from 'node:os';
import { appendFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import type { LedgerResource } from '@netbench/plugin-api';
import { processHost } from '@netbench/plugin-api';
import type { NamespaceCapabilities } from './capabilities.js';
import type { LocalHostConfig } from './host-schema.js';
import type { LabPlan, PlannedHost } from './lab-plan.js';
import { linkAlias } from './naming.js';
import { osRelease } from './os-release.js';
import { processStartTimeSync } from './processes.js';
import { allowCongestionControls, mustRun, runCommand } from '@netbench/plugin-api/cloud-kit';
import { ingressCommands, shapingCommands } from './shaping.js';
import { ipBatch } from './ip-batch.js';
import { startSshd, writeSshdFiles } from './sshd.js';
import { namespaceHost, PLUGIN_NAME } from './namespace-host.js';

export { PLUGIN_NAME, ROOT_INSTALLER_ID } from './namespace-host.js';

/**
 * The lab's bridge, in a namespace of its own (the hub), quiet for
 * measurements: no IP, no STP delay. Nothing in the machine's own namespace
 * sees the lab's frames (dockerd's FORWARD policy and bridge netfilter there
 * do not apply), and deleting the hub's namespace takes the bridge and every
 * veth with it, in one step of the kernel's.
 */
async function createBridge(name: string, hub: string, runId: string): Promise<void> {
  await ipBatch([
    ['link', 'add', 'name', name, 'type', 'bridge', 'stp_state', '0', 'forward_delay', '0'],
    ['link', 'set', 'dev', name, 'alias', linkAlias(runId)],
    ['link', 'set', 'dev', name, 'addrgenmode', 'none'],
    ['link', 'set', 'dev', name, 'up'],
  ], hub);
}

/**
 * No netfilter on the bridge's frames. Older kernels lack the per-bridge
 * switches (the global default applies there), so a failure is not an error.
 * Only needed before traffic flows, so it runs beside the veths' creation.
 */
async function quietBridgeNetfilter(name: string, hub: string): Promise<void> {
  await runCommand(['ip', '-n', hub, 'link', 'set', 'dev', name, 'type', 'bridge', 'nf_call_iptables', '0', 'nf_call_ip6tables', '0', 'nf_call_arptables', '0']);
}

async function createNamespace(name: string): Promise<void> {
  await mustRun(['ip', 'netns', 'add', name]);
}

/**
 * The veth is made in the hub (the bridge's end) with its peer born inside the host's namespace
 * as eth0; egress shaping lives on eth0, ingress shaping on the bridge's end. The pair dies with
 * either namespace. Two `ip -batch` processes (hub, then inside) instead of a process per command;
 * the namespace's loopback comes up here too.
 */
async function createVeth(host: PlannedHost, plan: LabPlan, runId: string): Promise<void> {
  const { veth, netns } = host;
  await ipBatch([
    ['link', 'add', 'name', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', netns],
    ['link', 'set', 'dev', veth, 'alias', linkAlias(runId)],
    ['link', 'set', 'dev', veth, 'addrgenmode', 'none'],
    ['link', 'set', 'dev', veth, 'master', plan.bridge],
    ['link', 'set', 'dev', veth, 'up'],
  ], plan.hub);
  await ipBatch([
    ['link', 'set', 'dev', 'lo', 'up'],
    ['addr', 'add', `${host.address}/${plan.subnet.prefix}`, 'dev', 'eth0'],
    ['link', 'set', 'dev', 'eth0', 'up'],
  ], netns);
  for (const command of shapingCommands(netns, host.request.config.link)) await mustRun(command);
  for (const command of ingressCommands(host.request.config.link, veth, plan.hub)) await mustRun(command);
}

/**
 * Every process a host starts is appended (pid and start time) to a file that
 * a `process` resource points at, so teardown can reap stragglers even in a
 * fresh process, and never a reused pid.
 */
async function trackSpawned(ctx: ProvisionContext, request: HostRequest<LocalHostConfig>, dir: string) {
  const pidFile = join(dir, 'spawned.pids');
  const resource: LedgerResource = { type: 'process', id: `spawned@${request.id}`, host: request.id, data: { runId: ctx.runId, pidFile } };
  await ctx.ledger.track(resource, async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(pidFile, '', { flag: 'a' });
  });
  return (pid: number) => {
    try {
      appendFileSync(pidFile, `${pid} ${processStartTimeSync(pid) ?? ''}\n`);
    } catch {
      // The run folder is gone; the namespace teardown still stops the process.
    }
  };
}

async function provisionNamespaceHost(host: PlannedHost, plan: LabPlan, ctx: ProvisionContext, os: string | undefined, bridge: Promise<unknown>): Promise<Host> {
  const { request, netns } = host;
  const dir = join(ctx.runDir, PLUGIN_NAME, host.dirName);
  const data = { runId: ctx.runId };
  await ctx.ledger.track({ type: 'netns', id: netns, host: request.id, data }, () => createNamespace(netns));
  // The veth is enslaved to the bridge as it is made: it waits for the bridge (made beside the namespaces).
  await bridge;
  // The address is recorded so that a later invocation can check the namespace still has it (reattach).
  // `hub`: the namespace the veth's bridge end lives in (a ledger without it is from a lab whose bridge was in the machine's namespace).
  await ctx.ledger.track({ type: 'veth', id: host.veth, host: request.id, data: { ...data, netns, hub: plan.hub, bridge: plan.bridge, address: host.address } }, () => createVeth(host, plan, ctx.runId));
  const onSpawn = await trackSpawned(ctx, request, dir);
  let ssh: { clientKey: string; knownHosts: string } | undefined;
  if (request.config.sshd) {
    const files = await writeSshdFiles(dir, ctx.runId, request.id, netns, host.address);
    const resource: LedgerResource = { type: 'process', id: `sshd@${netns}`, host: request.id, data: { ...data, netns, command: 'sshd', config: files.config } };
    const sshd = await ctx.ledger.track(resource, () => startSshd(netns, host.address, files));
    // Same resource again, now with the pid and its start time (the ledger keeps the fullest line).
    await ctx.ledger.created({ ...resource, data: { ...resource.data, pid: sshd.pid, startTime: sshd.startTime } });
    ssh = files;
  }
  return namespaceHost({ request, netns, address: host.address, os, onSpawn, congestionControl: 'set', ...(ssh ? { ssh } : {}) });
}

async function provisionLoopback(plan: LabPlan, caps: NamespaceCapabilities, ctx: ProvisionContext, os: string | undefined): Promise<Host[]> {
  const ids = plan.hosts.map((h) => h.request.id).join(', ');
  ctx.log.warn(
    `local: network namespaces are unavailable (${caps.detail.netns}), so hosts ${ids} run on 127.0.0.1: ` +
      'no link shaping and no isolation (every host is this machine, sharing one network stack). Run netbench as root for a namespace lab.',
  );
  const fixed = plan.hosts.filter((h) => h.request.config.address !== undefined).map((h) => h.request.id);
  if (fixed.length > 0) ctx.log.warn(`local: address is ignored on loopback hosts (${fixed.join(', ')})`);
  const hosts: Host[] = [];
  for (const host of plan.hosts) {
    const onSpawn = await trackSpawned(ctx, host.request, join(ctx.runDir, PLUGIN_NAME, host.dirName));
    hosts.push(processHost({
      id: host.request.id,
      name: host.request.name,
      cloud: PLUGIN_NAME,
      zone: 'local',
      machineType: 'loopback',
      internalIp: '127.0.0.1',
      os,
      labels: { isolation: 'loopback', cpu_count: String(availableParallelism()) },
      onSpawn,
    }));
  }
  return hosts;
}

/**
 * The hub namespace and its bridge, then beside each other: the bridge's
 * netfilter switches and the congestion controls the hosts ask for allowed;
 * and per host a namespace (made beside the hub), a veth (once the bridge
 * exists; with shaping), a pid list and maybe an sshd. Each resource is
 * tracked before it is made; every step is settled before provision returns,
 * so nothing is still being made when teardown reads the ledger.
 */
export async function provisionLab(plan: LabPlan, caps: NamespaceCapabilities, ctx: ProvisionContext): Promise<Host[]> {
  const os = await osRelease();
  if (!caps.netns) return provisionLoopback(plan, caps, ctx, os);
  const data = { runId: ctx.runId };
  const bridge = (async () => {
    await ctx.ledger.track({ type: 'netns', id: plan.hub, data: { ...data, role: 'hub' } }, () => createNamespace(plan.hub));
    await ctx.ledger.track({ type: 'bridge', id: plan.bridge, data: { ...data, netns: plan.hub } }, () => createBridge(plan.bridge, plan.hub, ctx.runId));
  })();
  const afterBridge = bridge.then(() => Promise.all([
    quietBridgeNetfilter(plan.bridge, plan.hub),
    (async () => {
      const wanted = plan.hosts.flatMap((h) => h.request.config.congestionControl ?? []);
      if (wanted.length > 0) await allowCongestionControls('local', wanted, ctx);
    })(),
  ]));
  const hosts = Promise.allSettled(plan.hosts.map(async (host) => {
    ctx.signal.throwIfAborted();
    return provisionNamespaceHost(host, plan, ctx, os, bridge);
  }));
  const [shared, outcomes] = await Promise.all([afterBridge.then(() => undefined, (error: unknown) => ({ error })), hosts]);
  // The bridge's own failure explains the hosts' (their veths had nothing to join): it comes first.
  if (shared) throw shared.error;
  const failed = outcomes.find((o) => o.status === 'rejected');
  if (failed) throw failed.reason;
  return outcomes.map((o) => (o as PromiseFulfilledResult<Host>).value);
}
