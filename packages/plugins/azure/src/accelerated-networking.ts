import type { HostRequest, Logger } from '@netbench/plugin-api';
import type { ArmClients } from './clients.js';
import type { AzureHostConfig } from './host-schema.js';
import { splitZone } from './naming.js';

/** A host whose `acceleratedNetworking` is decided. */
export type ResolvedRequest = HostRequest<AzureHostConfig & { readonly acceleratedNetworking: boolean }>;

/**
 * Which VM sizes of a location can have accelerated networking, from the
 * Resource SKUs API (`GET …/providers/Microsoft.Compute/skus?$filter=location
 * eq 'X'`, capability `AcceleratedNetworkingEnabled`): size name (lower case) → yes/no.
 */
export async function acceleratedNetworkingSizes(clients: ArmClients, location: string, signal?: AbortSignal): Promise<Map<string, boolean>> {
  const sizes = new Map<string, boolean>();
  for await (const sku of clients.compute.resourceSkus.list({ filter: `location eq '${location}'`, ...(signal ? { abortSignal: signal } : {}) })) {
    if (sku.resourceType !== 'virtualMachines' || !sku.name) continue;
    const capability = sku.capabilities?.find((c) => c.name === 'AcceleratedNetworkingEnabled');
    sizes.set(sku.name.toLowerCase(), capability?.value?.toLowerCase() === 'true');
  }
  return sizes;
}

/**
 * Decide `acceleratedNetworking` for hosts that leave it out: on when the
 * size supports it, off when Resource SKUs says it does not (a NIC with it on
 * makes the VM create fail on such sizes). A size the API does not list, or a
 * lookup that fails, leaves it on (with a warning for the failure); an
 * explicit `true`/`false` is kept as given.
 */
export async function resolveAcceleratedNetworking(
  requests: readonly HostRequest<AzureHostConfig>[],
  clients: ArmClients,
  log: Logger,
  signal?: AbortSignal,
): Promise<ResolvedRequest[]> {
  const open = requests.filter((r) => r.config.acceleratedNetworking === undefined);
  const locations = [...new Set(open.map((r) => splitZone(r.config.zone).location))];
  const byLocation = new Map<string, Map<string, boolean>>();
  await Promise.all(
    locations.map(async (location) => {
      try {
        byLocation.set(location, await acceleratedNetworkingSizes(clients, location, signal));
      } catch (error) {
        log.warn(`azure: could not read which sizes have accelerated networking in ${location} (${(error as Error).message.split('\n')[0]}); leaving it on`);
      }
    }),
  );
  return requests.map((r) => {
    if (r.config.acceleratedNetworking !== undefined) return r as ResolvedRequest;
    const supported = byLocation.get(splitZone(r.config.zone).location)?.get(r.config.machineType.toLowerCase());
    if (supported === false) log.info(`azure: ${r.config.machineType} has no accelerated networking: host ${r.id} gets a NIC without it`);
    return { ...r, config: { ...r.config, acceleratedNetworking: supported ?? true } };
  });
}
