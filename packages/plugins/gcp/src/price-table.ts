/**
 * Compute Engine list prices netbench estimates with: on-demand Linux,
 * USD, per hour; network egress per GiB. Approximate public list prices
 * compiled on the date below from Google's pricing pages ("VM instance
 * pricing", "Virtual Private Cloud pricing: VM-VM data transfer",
 * "Network Service Tiers pricing", "Cloud VPN pricing", "VPC pricing: IP
 * addresses"); they change — override any entry with
 * a JSON file of the same shape (`~/.netbench/prices/gcp.json`).
 */
export interface GcpPriceTable {
  readonly date: string;
  readonly currency: 'USD';
  /** $/hour in the base region (us-central1). */
  readonly instances: Readonly<Record<string, number>>;
  /** Region price relative to us-central1 (default 1 for a region not listed, with a note). */
  readonly regionMultiplier: Readonly<Record<string, number>>;
  /** Exact $/hour for a region, when known, over base × multiplier. */
  readonly regional?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly egress: {
    /** Between zones of one region (each direction). */
    readonly interZone: number;
    /** Between regions, by `continent>continent` (both orders listed, or looked up reversed). */
    readonly interRegion: Readonly<Record<string, number>>;
    /** To the internet (another cloud, on-premises), by tier and source continent. */
    readonly internet: { readonly PREMIUM: Readonly<Record<string, number>>; readonly STANDARD: Readonly<Record<string, number>> };
  };
  /**
   * Cloud VPN ("Cloud VPN pricing", us regions): $/hour per tunnel, and per
   * external address a gateway's forwarding rules use ("IP address pricing":
   * in use by a forwarding rule). Traffic through a tunnel is egress as
   * between VMs, priced by `egress` above.
   */
  readonly vpn?: { readonly tunnelHour: number; readonly addressHour: number };
}

export const GCP_PRICES: GcpPriceTable = {
  date: '2026-11-22',
  currency: 'USD',
  instances: {
    'n1-standard-1': 0.0475,
    'n1-standard-2': 0.095,
    'n1-standard-4': 0.19,
    'n1-standard-8': 0.38,
    'n1-standard-16': 0.76,
    'n1-standard-32': 1.52,
    'n1-standard-64': 3.04,
    'n1-highmem-2': 0.1184,
    'n1-highmem-4': 0.2368,
    'n1-highmem-8': 0.4736,
    'n1-highmem-16': 0.9472,
    'n2-standard-2': 0.0971,
    'n2-standard-4': 0.1942,
    'n2-standard-8': 0.3885,
    'n2-standard-16': 0.7769,
    'n2-standard-32': 1.5539,
    'n2d-standard-2': 0.0845,
    'n2d-standard-4': 0.169,
    'n2d-standard-8': 0.338,
    'n2d-standard-16': 0.6759,
    'e2-standard-2': 0.067,
    'e2-standard-4': 0.134,
    'e2-standard-8': 0.2681,
    'e2-standard-16': 0.5361,
    'c2-standard-4': 0.2088,
    'c2-standard-8': 0.4176,
    'c2-standard-16': 0.8352,
    'c2-standard-30': 1.566,
    'c2-standard-60': 3.1321,
    'c3-standard-4': 0.2014,
    'c3-standard-8': 0.4028,
    'c3-standard-22': 1.1077,
    'c3-standard-44': 2.2154,
  },
  regionMultiplier: {
    'us-central1': 1,
    'us-east1': 1,
    'us-west1': 1,
    'us-east4': 1.126,
    'us-east5': 1,
    'us-south1': 1.18,
    'us-west2': 1.2,
    'us-west3': 1.2,
    'us-west4': 1.126,
    'northamerica-northeast1': 1.1,
    'northamerica-northeast2': 1.1,
    'southamerica-east1': 1.59,
    'southamerica-west1': 1.43,
    'europe-west1': 1.1,
    'europe-west2': 1.288,
    'europe-west3': 1.288,
    'europe-west4': 1.1,
    'europe-west6': 1.4,
    'europe-north1': 1.1,
    'europe-central2': 1.288,
    'europe-southwest1': 1.18,
    'europe-west8': 1.16,
    'europe-west9': 1.16,
    'asia-east1': 1.159,
    'asia-east2': 1.4,
    'asia-northeast1': 1.284,
    'asia-northeast2': 1.284,
    'asia-northeast3': 1.284,
    'asia-south1': 1.2,
    'asia-southeast1': 1.232,
    'asia-southeast2': 1.38,
    'australia-southeast1': 1.42,
    'australia-southeast2': 1.42,
    'me-west1': 1.18,
    'africa-south1': 1.3,
  },
  egress: {
    interZone: 0.01,
    interRegion: {
      'NA>NA': 0.02,
      'EU>EU': 0.02,
      'ASIA>ASIA': 0.05,
      'SA>SA': 0.08,
      'OC>OC': 0.08,
      'ME>ME': 0.08,
      'AF>AF': 0.08,
      'NA>EU': 0.05,
      'NA>ASIA': 0.08,
      'EU>ASIA': 0.08,
      'NA>SA': 0.08,
      'EU>SA': 0.08,
      'ASIA>SA': 0.08,
      'NA>OC': 0.15,
      'EU>OC': 0.15,
      'ASIA>OC': 0.15,
      'SA>OC': 0.15,
      'NA>ME': 0.11,
      'EU>ME': 0.11,
      'ASIA>ME': 0.11,
      'NA>AF': 0.11,
      'EU>AF': 0.11,
      'ASIA>AF': 0.11,
      'ME>AF': 0.11,
      'SA>ME': 0.14,
      'SA>AF': 0.14,
      'OC>ME': 0.15,
      'OC>AF': 0.15,
    },
    internet: {
      PREMIUM: { NA: 0.12, EU: 0.12, ASIA: 0.12, SA: 0.12, OC: 0.19, ME: 0.12, AF: 0.12 },
      STANDARD: { NA: 0.085, EU: 0.085, ASIA: 0.11, SA: 0.11, OC: 0.15, ME: 0.11, AF: 0.11 },
    },
  },
  // Compiled 2026-11-25 from "Cloud VPN pricing" (per tunnel-hour, us regions; some regions charge up to 1.5×) and "IP address pricing".
  vpn: { tunnelHour: 0.05, addressHour: 0.005 },
};

/** Continent of a GCP region, for egress pricing. */
export function continentOf(region: string): string {
  if (/^(us|northamerica)-/.test(region)) return 'NA';
  if (region.startsWith('southamerica-')) return 'SA';
  if (region.startsWith('europe-')) return 'EU';
  if (region.startsWith('australia-')) return 'OC';
  if (region.startsWith('me-')) return 'ME';
  if (region.startsWith('africa-')) return 'AF';
  return 'ASIA';
}
