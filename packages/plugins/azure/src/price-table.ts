/**
 * Azure list prices netbench estimates with: pay-as-you-go Linux VMs, USD
 * per hour; bandwidth per GB. Approximate public list prices compiled on the
 * date below from Microsoft's pricing pages ("Linux Virtual Machines
 * Pricing", "Bandwidth pricing"); they change — override any entry with a
 * JSON file of the same shape (`~/.netbench/prices/azure.json`).
 */
export interface AzurePriceTable {
  readonly date: string;
  readonly currency: 'USD';
  /** $/hour in the base location (eastus). */
  readonly instances: Readonly<Record<string, number>>;
  /** Location price relative to eastus (1 for a location not listed, with a note). */
  readonly locationMultiplier: Readonly<Record<string, number>>;
  readonly regional?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Expected network bandwidth of a size, bit/s (counted for flows without a target rate). */
  readonly bandwidthBps: Readonly<Record<string, number>>;
  readonly egress: {
    /** Between availability zones of one location (each direction); Microsoft does not bill it as of the date. */
    readonly interZone: number;
    /** Between locations, by `continent>continent` (looked up both ways). */
    readonly interRegion: Readonly<Record<string, number>>;
    /** To the internet, by source continent (after the free first 100 GB a month, not counted here). */
    readonly internet: Readonly<Record<string, number>>;
  };
}

export const AZURE_PRICES: AzurePriceTable = {
  date: '2026-11-22',
  currency: 'USD',
  instances: {
    Standard_B2s: 0.0416,
    Standard_B2ms: 0.0832,
    Standard_D2s_v3: 0.096,
    Standard_D4s_v3: 0.192,
    Standard_D8s_v3: 0.384,
    Standard_D16s_v3: 0.768,
    Standard_D2s_v5: 0.096,
    Standard_D4s_v5: 0.192,
    Standard_D8s_v5: 0.384,
    Standard_D16s_v5: 0.768,
    Standard_D32s_v5: 1.536,
    Standard_D2as_v5: 0.086,
    Standard_D4as_v5: 0.172,
    Standard_D8as_v5: 0.344,
    Standard_D16as_v5: 0.688,
    Standard_D2ds_v5: 0.113,
    Standard_D4ds_v5: 0.226,
    Standard_D8ds_v5: 0.452,
    Standard_F2s_v2: 0.0846,
    Standard_F4s_v2: 0.169,
    Standard_F8s_v2: 0.338,
    Standard_F16s_v2: 0.677,
    Standard_F32s_v2: 1.353,
  },
  locationMultiplier: {
    eastus: 1,
    eastus2: 1,
    westus2: 1,
    westus3: 1,
    centralus: 1.1,
    northcentralus: 1.1,
    southcentralus: 1.1,
    westus: 1.1,
    westcentralus: 1.1,
    canadacentral: 1.1,
    brazilsouth: 1.55,
    northeurope: 1.08,
    westeurope: 1.15,
    uksouth: 1.12,
    francecentral: 1.15,
    germanywestcentral: 1.15,
    swedencentral: 1.08,
    norwayeast: 1.2,
    japaneast: 1.3,
    koreacentral: 1.25,
    southeastasia: 1.2,
    eastasia: 1.3,
    centralindia: 1.15,
    australiaeast: 1.25,
    uaenorth: 1.2,
    southafricanorth: 1.25,
  },
  bandwidthBps: {
    Standard_B2s: 1e9,
    Standard_B2ms: 1e9,
    Standard_D2s_v3: 1e9,
    Standard_D4s_v3: 2e9,
    Standard_D8s_v3: 4e9,
    Standard_D16s_v3: 8e9,
    Standard_D2s_v5: 12.5e9,
    Standard_D4s_v5: 12.5e9,
    Standard_D8s_v5: 12.5e9,
    Standard_D16s_v5: 12.5e9,
    Standard_D32s_v5: 16e9,
    Standard_F2s_v2: 5e9,
    Standard_F4s_v2: 10e9,
    Standard_F8s_v2: 12.5e9,
    Standard_F16s_v2: 12.5e9,
    Standard_F32s_v2: 16e9,
  },
  egress: {
    interZone: 0,
    interRegion: {
      'NA>NA': 0.02,
      'EU>EU': 0.02,
      'ASIA>ASIA': 0.08,
      'OC>OC': 0.08,
      'SA>SA': 0.16,
      'ME>ME': 0.08,
      'AF>AF': 0.08,
      'NA>EU': 0.05,
      'NA>ASIA': 0.05,
      'NA>OC': 0.05,
      'NA>SA': 0.05,
      'NA>ME': 0.05,
      'NA>AF': 0.05,
      'EU>ASIA': 0.05,
      'EU>OC': 0.05,
      'EU>SA': 0.05,
      'EU>ME': 0.05,
      'EU>AF': 0.05,
      'ASIA>OC': 0.08,
      'ASIA>SA': 0.08,
      'ASIA>ME': 0.08,
      'ASIA>AF': 0.08,
      'OC>SA': 0.08,
      'OC>ME': 0.08,
      'OC>AF': 0.08,
      'SA>ME': 0.16,
      'SA>AF': 0.16,
      'ME>AF': 0.08,
    },
    internet: { NA: 0.087, EU: 0.087, ASIA: 0.12, OC: 0.12, SA: 0.181, ME: 0.181, AF: 0.181 },
  },
};

export function continentOf(location: string): string {
  if (/^(eastus|eastus2|westus|westus2|westus3|centralus|northcentralus|southcentralus|westcentralus|canada)/.test(location)) return 'NA';
  if (location.startsWith('brazil')) return 'SA';
  if (/^(north|west)europe|^uk|^france|^germany|^sweden|^norway|^switzerland|^poland|^italy|^spain/.test(location)) return 'EU';
  if (location.startsWith('australia') || location.startsWith('newzealand')) return 'OC';
  if (/^(uae|qatar|israel)/.test(location)) return 'ME';
  if (location.startsWith('southafrica')) return 'AF';
  return 'ASIA';
}
