import type { CostEstimate, CostUsage, HostRequest } from '@netbench/plugin-api';
import { estimateTableCost, loadPriceFile, priceFilePath } from '@netbench/plugin-api/cloud-kit';
import { tierOf, type GcpHostConfig } from './host-schema.js';
import { regionOf } from './naming.js';
import { continentOf, GCP_PRICES, type GcpPriceTable } from './price-table.js';

/** `$NETBENCH_GCP_PRICES`, else `$NETBENCH_HOME/prices/gcp.json` (`~/.netbench/prices/gcp.json`). */
export const defaultPriceFile = () => priceFilePath('gcp');

/** The shipped table with the user's file (if any) merged over it, entry by entry. */
export function loadPrices(file = defaultPriceFile()): { table: GcpPriceTable; notes: string[] } {
  return loadPriceFile(GCP_PRICES, file);
}

/** vCPUs of a machine type, from its name (`n2-standard-16` → 16); shared-core types count 2. */
const vcpus = (machineType: string) => Number(/-(\d+)$/.exec(machineType)?.[1] ?? 2);
/** Per-VM egress cap: 2 Gbit/s per vCPU up to 32 (default networking); 7 Gbit/s leaving Google. */
const capBps = (machineType: string, internet: boolean) => Math.min(2e9 * vcpus(machineType), internet ? 7e9 : 32e9);

/**
 * Instance-hours from the price table, plus egress (per GiB) for every flow a
 * GCP host sends: free within a zone (internal addresses), `interZone` across
 * zones, continent-pair prices across regions, internet prices by network
 * tier to hosts outside GCP. A flow with no rate is counted at the machine's cap.
 */
export function estimateGcpCost(requests: readonly HostRequest<GcpHostConfig>[], usage: CostUsage, priceFile?: string): CostEstimate {
  const { table, notes } = loadPrices(priceFile);
  return estimateTableCost(requests, usage, {
    table,
    notes,
    multipliers: table.regionMultiplier,
    baseRegion: 'us-central1',
    unit: 'GiB',
    transferName: 'egress',
    site: (config) => ({ zone: config.zone, region: regionOf(config.zone), machineType: config.machineType }),
    continentOf,
    capBps: (from, to) => capBps(from.machineType, !to),
    internet: (from) => ({ prices: table.egress.internet[tierOf(from)], label: `${tierOf(from).toLowerCase()} tier` }),
  });
}
