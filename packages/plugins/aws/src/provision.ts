import { join } from 'node:path';
import type { Host, HostRequest, ProvisionContext, SshHost, SshHostKeyPolicy } from '@netbench/plugin-api';
import { recordHostKey, settleVmCongestionControl } from '@netbench/plugin-api/cloud-kit';
import { retryWithin } from './connect.js';
import { type FleetDeps, type FleetLaunch, type LaunchedHost, launchFleet } from './fleet.js';
import type { AwsHostConfig } from './host-schema.js';

export const CONSOLE_SOURCE = 'EC2 console output (cloud-init)';

/**
 * Launch the fleet (see `launchFleet`), then open one SSH connection per
 * host in parallel. Host keys come from the console when cloud-init printed
 * them (`pinned`), else trust-on-first-use recorded in the run folder; the
 * `hostKey` label says which. If any host cannot be reached, the others are
 * closed and the error thrown: the engine then tears down the ledger.
 */
export async function provisionAws(requests: readonly HostRequest<AwsHostConfig>[], ctx: ProvisionContext, deps: FleetDeps): Promise<Host[]> {
  const before = deps.clients.counter.total;
  const fleet = await launchFleet(requests, ctx, deps);
  const calls = deps.clients.counter.total - before;
  ctx.log.info(`aws: ${requests.length} host${requests.length === 1 ? '' : 's'} running after ${calls} API calls (${(calls / Math.max(1, requests.length)).toFixed(1)} per host)`);
  return connectFleet(fleet, deps, ctx);
}

/** What a reattach connects with instead of the console: the key recorded at provision, and the `hostKey` label provision gave. */
export interface RecordedKey {
  readonly policy: SshHostKeyPolicy;
  readonly label: string;
}

/**
 * One SSH connection per host, in parallel; each host's key is recorded in
 * the run folder (reattach accepts only it). Any failure closes the others
 * and throws.
 */
export async function connectFleet(fleet: FleetLaunch, deps: FleetDeps, ctx: ProvisionContext, recorded?: ReadonlyMap<string, RecordedKey>): Promise<SshHost[]> {
  const knownHosts = join(fleet.dir, 'known_hosts');
  const attempts = fleet.hosts.map((host) => connectOne(host, fleet.privateKeyPath, knownHosts, deps, ctx, recorded?.get(host.request.id)));
  const results = await Promise.allSettled(attempts);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.allSettled(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.close()] : [])));
    throw failed.reason;
  }
  return results.map((r) => (r as PromiseFulfilledResult<SshHost>).value);
}

async function connectOne(host: LaunchedHost, privateKeyPath: string, knownHosts: string, deps: FleetDeps, ctx: ProvisionContext, recorded?: RecordedKey): Promise<SshHost> {
  const { request } = host;
  const override = deps.settings.sshAddress;
  const address = override?.host ?? host.publicIp ?? host.privateIp;
  const pinned = host.hostKeys.length > 0;
  const hostKey: SshHostKeyPolicy = recorded?.policy ?? (pinned ? { mode: 'pinned', keys: [...host.hostKeys], source: CONSOLE_SOURCE } : { mode: 'tofu', recordFile: knownHosts });
  const labels: Record<string, string> = { image: host.imageId, hostKey: recorded?.label ?? (pinned ? 'console' : 'tofu') };
  let connected: SshHost;
  try {
    connected = await ctx.connectSsh({
      id: request.id,
      name: request.name,
      cloud: request.cloud,
      zone: host.zone,
      region: host.region,
      machineType: request.config.machineType,
      internalIp: host.privateIp,
      ...(host.publicIp ? { externalIp: host.publicIp } : {}),
      labels,
      address,
      ...(override?.port ? { port: override.port } : {}),
      user: request.config.user,
      privateKeyPath,
      hostKey,
      connectRetry: retryWithin(request.config.connectTimeout),
    });
  } catch (error) {
    throw new Error(`aws: host ${request.id} (${host.instanceId}) is running but not reachable over SSH at ${address}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  // Set (or only read) over SSH; the label is what the VM reports. The VM goes with the run: nothing to restore.
  await settleVmCongestionControl(connected, labels, request.config.congestionControl, `aws: host ${request.id}`);
  if (recorded) return connected;
  // Kept in the run folder: a later invocation of this run (reattach) accepts only this key.
  try {
    await recordHostKey(ctx.runDir, 'aws', request.id, address, override?.port ?? 22, hostKey);
  } catch (error) {
    await connected.close();
    throw error;
  }
  return connected;
}
