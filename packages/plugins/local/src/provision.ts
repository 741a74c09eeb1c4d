import { appendFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Host, HostRequest, Ledger, LedgerResource, ProvisionContext } from '@netbench/plugin-api';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, processHost } from '@netbench/plugin-api';
import { allowCongestionControls, linkEgressCommands, linkIngressCommands, mustRun, runCommand } from '@netbench/plugin-api/cloud-kit';
import type { NamespaceCapabilities } from './capabilities.js';
import type { LocalHostConfig } from './host-schema.js';
import { ipBatch, ipBatchEach } from './ip-batch.js';
import type { LabPlan, PlannedHost } from './lab-plan.js';
import { namespaceCongestionControl, namespaceHost, PLUGIN_NAME } from './namespace-host.js';
import { linkAlias } from './naming.js';
import { osRelease } from './os-release.js';
import { processStartTimeSync } from './processes.js';
import { startSshd, writeSshdFiles } from './sshd.js';

export { PLUGIN_NAME, ROOT_INSTALLER_ID } from './namespace-host.js';

/**
 * The lab's bridge, in a namespace of its own (the hub), quiet for
 * measurements: no IP, no STP delay. Nothing in the machine's own namespace
 * sees the lab's frames (dockerd's FORWARD policy and bridge netfilter there
 * do not apply), and deleting the hub's namespace takes the bridge and every
 * veth with it, in one step of the kernel's.
 */
function bridgeCommands(name: string, runId: string): string[][] {
  return [
    ['link', 'add', 'name', name, 'type', 'bridge', 'stp_state', '0', 'forward_delay', '0'],
    ['link', 'set', 'dev', name, 'alias', linkAlias(runId)],
    ['link', 'set', 'dev', name, 'addrgenmode', 'none'],
    ['link', 'set', 'dev', name, 'up'],
  ];
}

/**
 * No netfilter on the bridge's frames. Older kernels lack the per-bridge
 * switches (the global default applies there), so a failure is not an error.
 * Only needed before traffic flows, so it runs beside the hosts' set-up.
 */
async function quietBridgeNetfilter(name: string, hub: string): Promise<void> {
  await runCommand(['ip', '-n', hub, 'link', 'set', 'dev', name, 'type', 'bridge', 'nf_call_iptables', '0', 'nf_call_ip6tables', '0', 'nf_call_arptables', '0']);
}

/**
 * A host's veth, made in the hub (the bridge's end) with its peer born inside
 * the host's namespace as eth0. Egress shaping lives on eth0, ingress shaping
 * on the bridge's end. The pair dies with either namespace.
 */
function vethCommands(host: PlannedHost, plan: LabPlan, runId: string): string[][] {
  const { veth, netns } = host;
  return [
    ['link', 'add', 'name', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', netns],
    ['link', 'set', 'dev', veth, 'alias', linkAlias(runId)],
    ['link', 'set', 'dev', veth, 'addrgenmode', 'none'],
    ['link', 'set', 'dev', veth, 'master', plan.bridge],
    ['link', 'set', 'dev', veth, 'up'],
  ];
}

/** Inside the host's namespace: loopback up, the address on eth0, eth0 up (one `ip -batch`), then any shaping. */
async function configureInside(host: PlannedHost, plan: LabPlan): Promise<void> {
  const { veth, netns } = host;
  await ipBatch(
    [
      ['link', 'set', 'dev', 'lo', 'up'],
      ['addr', 'add', `${host.address}/${plan.subnet.prefix}`, 'dev', 'eth0'],
      ...(host.request.config.mtu !== undefined ? [['link', 'set', 'dev', 'eth0', 'mtu', String(host.request.config.mtu)]] : []),
      ['link', 'set', 'dev', 'eth0', 'up'],
    ],
    netns,
  );
  for (const command of linkEgressCommands(['tc', '-n', netns], 'eth0', host.request.config.link)) await mustRun(command);
  for (const command of linkIngressCommands(['tc', '-n', plan.hub], veth, host.request.config.link)) await mustRun(command);
}

interface Made {
  readonly resource: LedgerResource;
  readonly commands: readonly (readonly string[])[];
}

/**
 * Make several resources with one `ip -batch` process (a process
 * each, one after another, was most of making the lab). Every intent is on
 * the ledger before the process starts, and each resource gets its own
 * outcome (`created` or `failed`, with the message of its first failed
 * command). Throws the first resource's failure, in the given order.
 */
async function makeTogether(ledger: Ledger, made: readonly Made[], options: { netns?: string; force?: boolean }): Promise<void> {
  let outcomes: (Error | undefined)[] | undefined;
  let batchError: unknown;
  const batch = async () => {
    const flat = made.flatMap((m) => m.commands);
    const each = await ipBatchEach(flat, options).catch((error: unknown) => {
      batchError = error;
      return undefined;
    });
    let at = 0;
    outcomes = made.map((m) => {
      const mine = each?.slice(at, (at += m.commands.length));
      return mine?.find((outcome) => outcome !== undefined);
    });
  };
  // track(first, () => track(second, () => ... batch)): intents in order, outcomes in reverse.
  const nest = async (i: number): Promise<void> => {
    if (i === made.length) return batch();
    await ledger.track(made[i]!.resource, async () => {
      const inner = await nest(i + 1).then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      // The ledger could not record an inner intent: nothing was made, and that is the failure.
      if (outcomes === undefined && batchError === undefined && inner) throw inner.error;
      const failure = batchError ?? outcomes?.[i];
      if (failure !== undefined) throw failure;
    });
  };
  const outer = await nest(0).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  if (outcomes === undefined && batchError === undefined && outer) throw outer.error;
  if (batchError !== undefined) throw batchError;
  const failed = outcomes?.find((outcome) => outcome !== undefined);
  if (failed) throw failed;
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
    // Owner-only, as the rest of the run folder: pids and start times of the run's processes are nobody else's.
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await writeFile(pidFile, '', { flag: 'a', mode: PRIVATE_FILE_MODE });
    // `mode` applies only to a file created here; one left by an earlier invocation of the run is tightened too.
    await chmod(pidFile, PRIVATE_FILE_MODE);
  });
  return (pid: number) => {
    try {
      appendFileSync(pidFile, `${pid} ${processStartTimeSync(pid) ?? ''}\n`);
    } catch {
      // The run folder is gone; the namespace teardown still stops the process.
    }
  };
}

/**
 * A host whose namespace and veth exist: inside it the addresses (and any
 * shaping), beside them its pid list and its congestion control (which needs
 * only the namespace, and to set one, the algorithm allowed), then maybe an
 * sshd (which needs the address).
 */
async function finishNamespaceHost(host: PlannedHost, plan: LabPlan, ctx: ProvisionContext, os: string | undefined, allowed: Promise<void>): Promise<Host> {
  const { request, netns } = host;
  const dir = join(ctx.runDir, PLUGIN_NAME, host.dirName);
  const congestionControl = (async () => {
    if (request.config.congestionControl !== undefined) await allowed;
    return namespaceCongestionControl(request, netns, 'set');
  })();
  const [onSpawn, label] = await Promise.all([trackSpawned(ctx, request, dir), congestionControl, configureInside(host, plan)]);
  let ssh: { clientKey: string; knownHosts: string } | undefined;
  if (request.config.sshd) {
    const data = { runId: ctx.runId };
    const files = await writeSshdFiles(dir, ctx.runId, request.id, netns, host.address);
    const resource: LedgerResource = { type: 'process', id: `sshd@${netns}`, host: request.id, data: { ...data, netns, command: 'sshd', config: files.config } };
    const sshd = await ctx.ledger.track(resource, () => startSshd(netns, host.address, files));
    // Same resource again, now with the pid and its start time (the ledger keeps the fullest line).
    await ctx.ledger.created({ ...resource, data: { ...resource.data, pid: sshd.pid, startTime: sshd.startTime } });
    ssh = files;
  }
  return namespaceHost({ request, netns, address: host.address, os, onSpawn, congestionControl: { label }, ...(ssh ? { ssh } : {}) });
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
    hosts.push(
      processHost({
        id: host.request.id,
        name: host.request.name,
        cloud: PLUGIN_NAME,
        zone: 'local',
        machineType: 'loopback',
        internalIp: '127.0.0.1',
        os,
        labels: { isolation: 'loopback', cpu_count: String(availableParallelism()) },
        onSpawn,
      }),
    );
  }
  return hosts;
}

/**
 * The lab in three steps, each tracked on the ledger before anything is made:
 * 1. every namespace, the hub's and each host's, in one `ip -force -batch`
 *    (they do not depend on each other);
 * 2. in the hub, one `ip -batch`: the bridge and every host's veth;
 * 3. beside each other: the bridge's netfilter switches, the congestion
 *    controls the hosts ask for allowed, and each host's inside (addresses,
 *    shaping, pid list, congestion control, maybe an sshd).
 * Every step is settled before provision returns, so nothing is still being
 * made when teardown reads the ledger.
 */
export async function provisionLab(plan: LabPlan, caps: NamespaceCapabilities, ctx: ProvisionContext): Promise<Host[]> {
  const os = await osRelease();
  if (!caps.netns) return provisionLoopback(plan, caps, ctx, os);
  const data = { runId: ctx.runId };
  await makeTogether(
    ctx.ledger,
    [
      { resource: { type: 'netns', id: plan.hub, data: { ...data, role: 'hub' } }, commands: [['netns', 'add', plan.hub]] },
      ...plan.hosts.map((host) => ({ resource: { type: 'netns', id: host.netns, host: host.request.id, data }, commands: [['netns', 'add', host.netns]] })),
    ],
    { force: true },
  );
  ctx.signal.throwIfAborted();
  await makeTogether(
    ctx.ledger,
    [
      { resource: { type: 'bridge', id: plan.bridge, data: { ...data, netns: plan.hub } }, commands: bridgeCommands(plan.bridge, ctx.runId) },
      // The address is recorded so that a later invocation can check the namespace still has it (reattach).
      // `hub`: the namespace the veth's bridge end lives in (a ledger without it is from a lab whose bridge was in the machine's namespace).
      ...plan.hosts.map((host) => ({
        resource: { type: 'veth', id: host.veth, host: host.request.id, data: { ...data, netns: host.netns, hub: plan.hub, bridge: plan.bridge, address: host.address } },
        commands: vethCommands(host, plan, ctx.runId),
      })),
    ],
    { netns: plan.hub },
  );
  ctx.signal.throwIfAborted();
  const allowed = (async () => {
    const wanted = plan.hosts.flatMap((h) => h.request.config.congestionControl ?? []);
    if (wanted.length > 0) await allowCongestionControls('local', wanted, ctx);
  })();
  const shared = Promise.all([quietBridgeNetfilter(plan.bridge, plan.hub), allowed]);
  const hosts = Promise.allSettled(plan.hosts.map((host) => finishNamespaceHost(host, plan, ctx, os, allowed)));
  const [sharedFailure, outcomes] = await Promise.all([
    shared.then(
      () => undefined,
      (error: unknown) => ({ error }),
    ),
    hosts,
  ]);
  // A shared step's failure explains the hosts' (a congestion control not allowed): it comes first.
  if (sharedFailure) throw sharedFailure.error;
  const failed = outcomes.find((o) => o.status === 'rejected');
  if (failed) throw failed.reason;
  return outcomes.map((o) => (o as PromiseFulfilledResult<Host>).value);
}
