import { join } from 'node:path';
import { DescribeInstancesCommand, type Instance } from '@aws-sdk/client-ec2';
import type { HostRequest, LedgerEntry, ProvisionContext, SshHost } from '@netbench/plugin-api';
import { NetbenchError, pendingResources } from '@netbench/plugin-api';
import { recordedHostKey } from '@netbench/plugin-api/cloud-kit';
import { isNotFound } from './aws-errors.js';
import type { FleetDeps, LaunchedHost } from './fleet.js';
import type { AwsHostConfig } from './host-schema.js';
import { HOST_TAG, RUN_TAG } from './naming.js';
import { connectFleet, type RecordedKey } from './provision.js';
import { RESOURCE, resourceData } from './resources.js';

/**
 * The instances an earlier process of this run launched (a staged run's next
 * `--stage`, `--resume`), from the ledger: each is read back with
 * DescribeInstances, must be `running` and still carry the run's and the
 * host's tags, and is connected over SSH accepting only the host key recorded
 * at provision (never a new one). Creates nothing on AWS.
 */
export async function reattachAws(requests: readonly HostRequest<AwsHostConfig>[], ctx: ProvisionContext, deps: FleetDeps): Promise<SshHost[]> {
  if (requests.length === 0) return [];
  const dir = join(ctx.runDir, 'aws');
  const pending = pendingResources(ctx.ledger.entries);
  const hosts = await Promise.all(requests.map((r) => findInstance(r, pending, ctx, deps)));
  const recorded = new Map<string, RecordedKey>();
  for (const request of requests) {
    const { policy, record } = await recordedHostKey(ctx.runDir, 'aws', request.id);
    recorded.set(request.id, { policy, label: record.source.startsWith('trust on first use') ? 'tofu' : 'console' });
  }
  return connectFleet({ hosts, privateKeyPath: join(dir, 'id_ed25519'), dir }, deps, ctx, recorded);
}

async function findInstance(request: HostRequest<AwsHostConfig>, pending: readonly LedgerEntry[], ctx: ProvisionContext, deps: FleetDeps): Promise<LaunchedHost> {
  // With fallback zones each attempt has its own entry; the last is the one that was made.
  const entry = pending.filter((e) => e.resource.type === RESOURCE.instance && e.resource.host === request.id).at(-1);
  if (!entry) throw new NetbenchError(`aws: the ledger of run ${ctx.runId} has no instance for host ${request.id} (it was never provisioned, or was torn down)`);
  const data = resourceData(entry.resource);
  if (!data.awsId) throw new NetbenchError(`aws: host ${request.id}: the ledger has no instance id for ${entry.resource.id} (its launch never answered)`);
  const ec2 = deps.clients.ec2(data.region, data.endpoint);
  let instance: Instance | undefined;
  try {
    const out = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [data.awsId] }), { abortSignal: ctx.signal });
    instance = (out.Reservations ?? []).flatMap((r) => r.Instances ?? []).find((i) => i.InstanceId === data.awsId);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const what = `instance ${data.awsId} (${entry.resource.id})`;
  if (!instance) throw new NetbenchError(`aws: host ${request.id}: ${what} is gone`);
  const tags = new Map((instance.Tags ?? []).map((t) => [t.Key, t.Value]));
  if (tags.get(RUN_TAG) !== ctx.runId || tags.get(HOST_TAG) !== request.id) {
    throw new NetbenchError(`aws: host ${request.id}: ${what} does not carry the tags ${RUN_TAG}=${ctx.runId} and ${HOST_TAG}=${request.id}: it is not this run's`);
  }
  const state = instance.State?.Name ?? 'unknown';
  if (state !== 'running') throw new NetbenchError(`aws: host ${request.id}: ${what} is ${state}, not running`);
  if (!instance.PrivateIpAddress) throw new NetbenchError(`aws: host ${request.id}: ${what} has no private address`);
  return {
    request,
    region: data.region,
    zone: instance.Placement?.AvailabilityZone ?? data.zone ?? request.config.zone,
    instanceId: data.awsId,
    privateIp: instance.PrivateIpAddress,
    ...(instance.PublicIpAddress ? { publicIp: instance.PublicIpAddress } : {}),
    hostKeys: [],
    imageId: instance.ImageId ?? '',
  };
}
