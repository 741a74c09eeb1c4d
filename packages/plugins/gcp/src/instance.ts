import { randomUUID } from 'node:crypto';
import type { HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { CapacityError } from '@netbench/plugin-api';
import { type InstanceBody, instanceBody } from './bodies.js';
import { toNetbenchError } from './errors.js';
import { type GcpHostConfig, tierOf } from './host-schema.js';
import { regionOf, resourceName } from './naming.js';
import type { RunNetwork } from './network.js';
import { operationOf, waitForOperation } from './operations.js';
import { ids, resource, TYPES } from './resources.js';
import type { GcpRuntime } from './runtime.js';

export interface CreatedInstance {
  readonly request: HostRequest<GcpHostConfig>;
  readonly name: string;
  readonly zone: string;
  readonly internalIp: string;
  readonly externalIp?: string;
  /** Set when the host landed in a fallback zone. */
  readonly fallbackFrom?: string;
}

export const sourceImage = (config: GcpHostConfig) => config.image ?? `projects/${config.imageProject}/global/images/family/${config.imageFamily}`;

/**
 * Create one instance, trying `fallbackZones` in order when a zone has no
 * capacity for the machine type. Each attempt is its own ledger entry (the
 * zone is part of the id), so teardown visits every zone tried.
 */
export async function createInstance(
  request: HostRequest<GcpHostConfig>,
  project: string,
  network: RunNetwork,
  publicKey: string,
  ctx: ProvisionContext,
  runtime: GcpRuntime,
): Promise<CreatedInstance> {
  const clients = runtime.clients();
  const config = request.config;
  const name = resourceName(ctx.runId, request.id);
  const zones = [config.zone, ...config.fallbackZones];
  for (const [i, zone] of zones.entries()) {
    const policyLink = network.policyLinks.get(config.zone);
    const body: InstanceBody = instanceBody({
      runId: ctx.runId,
      hostId: request.id,
      name,
      project,
      zone,
      machineType: config.machineType,
      sourceImage: sourceImage(config),
      ...(config.diskType ? { diskType: config.diskType } : {}),
      networkLink: network.networkLink,
      ...(network.subnetLinks.get(regionOf(zone)) ? { subnetLink: network.subnetLinks.get(regionOf(zone))! } : {}),
      externalIp: config.externalIp,
      networkTier: tierOf(config),
      sshUser: config.sshUser,
      publicKey,
      ...(policyLink && zone === config.zone ? { policyLink } : {}),
    });
    const id = ids.instance(project, zone, name);
    try {
      await ctx.ledger.track(resource(TYPES.instance, id, request.id, { machineType: config.machineType }), async () => {
        const op = operationOf(await clients.instances.insert({ requestId: randomUUID(), project, zone, instanceResource: body }));
        await waitForOperation(clients, project, op, { signal: ctx.signal, timeoutMs: runtime.timing.operationTimeoutMs });
      });
    } catch (error) {
      const mapped = toNetbenchError(error, `creating ${config.machineType} instance ${name} in ${zone}`);
      const next = zones[i + 1];
      if (mapped instanceof CapacityError && next) {
        ctx.log.warn(`${zone} has no capacity for ${config.machineType} (host ${request.id}); trying ${next}`);
        continue;
      }
      throw mapped;
    }
    const [instance] = await clients.instances.get({ project, zone, instance: name });
    const nic = instance.networkInterfaces?.[0];
    const internalIp = nic?.networkIP;
    if (!internalIp) throw new Error(`instance ${id} has no internal address`);
    const externalIp = nic?.accessConfigs?.[0]?.natIP ?? undefined;
    return { request, name, zone, internalIp, ...(externalIp ? { externalIp } : {}), ...(zone !== config.zone ? { fallbackFrom: config.zone } : {}) };
  }
  throw new Error('unreachable: no zone left');
}
