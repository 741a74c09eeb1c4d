import type { CloudCatalog } from '@netbench/plugin-api';

/**
 * The machine type a new cloud site starts on: one fit for network tests,
 * never a burstable or shared-core one (their CPU and network run on
 * credits, so a measurement says more about the credit balance than the
 * network). Per cloud, with the reason (docs/desktop.md says the same):
 *
 * - aws `c5n.xlarge`: network optimized, 4 vCPUs (the tool and the kernel's
 *   packet processing get their own cores), a sustained baseline of several
 *   Gbit/s rather than t3's "up to" on credits.
 * - gcp `n2-standard-4`: 4 dedicated vCPUs and the 10 Gbit/s per-VM egress
 *   cap; e2-micro/small/medium are shared-core and burst.
 * - azure `Standard_D4s_v5`: 4 vCPUs with accelerated networking
 *   (12.5 Gbit/s); the B series is burstable.
 *
 * Other clouds: the first type of the catalog that does not look burstable.
 */
export const NETWORK_MACHINE_TYPES: Readonly<Record<string, string>> = {
  aws: 'c5n.xlarge',
  gcp: 'n2-standard-4',
  azure: 'Standard_D4s_v5',
};

const BURSTABLE_RE = /^(?:t\d+[a-z]*\.|e2-(?:micro|small|medium)$|f1-micro$|g1-small$|Standard_B)/;

export function defaultMachineType(cloud: string, catalog: CloudCatalog): string {
  const preferred = NETWORK_MACHINE_TYPES[cloud];
  if (preferred && catalog.machineTypes.some((m) => m.name === preferred)) return preferred;
  const fit = catalog.machineTypes.find((m) => m.family !== 'burstable' && !/shared/i.test(m.family ?? '') && !BURSTABLE_RE.test(m.name));
  return fit?.name ?? catalog.machineTypes[0]?.name ?? '';
}

/**
 * The zone a new place of a cloud starts on: the n-th place of a cloud on the
 * n-th zone of the region its first place is in (inter-zone by default, never
 * every place in one zone); a region with fewer zones wraps around.
 * `position` counts the earlier places of the cloud, zone filled or not:
 * places picked together get their zones when the catalog arrives, all at
 * once, before any earlier one's zone is known — the n-th still takes the
 * n-th zone.
 */
export function defaultZone(catalog: CloudCatalog, earlierZones: readonly string[], position = earlierZones.length): string {
  const region = catalog.regions.find((r) => earlierZones.length > 0 && r.zones.includes(earlierZones[0]!)) ?? catalog.regions[0];
  const zones = region?.zones ?? [];
  if (zones.length === 0) return '';
  if (earlierZones.length < position) return zones[position % zones.length]!;
  return zones.find((z) => !earlierZones.includes(z)) ?? zones[position % zones.length]!;
}
