import type { CostEstimate, CostUsage, HostRequest } from '@netbench/plugin-api';
import { estimateTableCost, loadPriceFile, priceFilePath } from '@netbench/plugin-api/cloud-kit';
import type { AzureHostConfig } from './host-schema.js';
import { splitZone } from './naming.js';
import { AZURE_PRICES, type AzurePriceTable, continentOf } from './price-table.js';

/** `$NETBENCH_AZURE_PRICES`, else `$NETBENCH_HOME/prices/azure.json` (`~/.netbench/prices/azure.json`). */
export const defaultPriceFile = () => priceFilePath('azure');

/** The shipped table with the user's file (if any) merged over it, entry by entry. */
export function loadPrices(file = defaultPriceFile()): { table: AzurePriceTable; notes: string[] } {
  return loadPriceFile(AZURE_PRICES, file);
}

/**
 * Instance-hours from the price table, plus bandwidth (per GB) for every flow
 * an Azure host sends: free within a zone, `interZone` across availability
 * zones (noted while Microsoft bills it at $0), continent-pair prices across
 * locations, internet prices to hosts outside Azure. A flow with no rate is
 * counted at the size's expected bandwidth from the table, else 10 Gbit/s.
 */
export function estimateAzureCost(requests: readonly HostRequest<AzureHostConfig>[], usage: CostUsage, priceFile?: string): CostEstimate {
  const { table, notes } = loadPrices(priceFile);
  return estimateTableCost(requests, usage, {
    table,
    notes,
    multipliers: table.locationMultiplier,
    baseRegion: 'eastus',
    unit: 'GB',
    transferName: 'data transfer',
    noteFreeInterZone: true,
    site: (config) => ({ zone: config.zone, region: splitZone(config.zone).location, machineType: config.machineType }),
    continentOf,
    capBps: (from) => table.bandwidthBps[from.machineType] ?? 10e9,
    internet: () => ({ prices: table.egress.internet }),
  });
}
