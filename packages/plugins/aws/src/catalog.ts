import type { CloudCatalog } from '@netbench/plugin-api';
import { CATALOG_DATE, REGION_ZONES, SERIES, type SeriesSpec } from './catalog-data.js';

type MachineType = CloudCatalog['machineTypes'][number];

/** vCPUs a size name stands for in every non-burstable family: medium 1, large 2, xlarge 4, `N`xlarge 4N. */
export function sizeVcpus(size: string): number | undefined {
  if (size === 'medium') return 1;
  if (size === 'large') return 2;
  const match = /^(\d*)xlarge$/.exec(size);
  return match ? 4 * Number(match[1] || 1) : undefined;
}

function typesOf(spec: SeriesSpec): MachineType[] {
  const family = spec.arch ? `${spec.family} (arm64)` : spec.family;
  return spec.sizes.map((size) => {
    const [vcpus, memoryGib] = spec.exact?.[size] ?? [sizeVcpus(size), undefined];
    const memory = memoryGib ?? (vcpus !== undefined && spec.gibPerVcpu ? vcpus * spec.gibPerVcpu : undefined);
    return { name: `${spec.series}.${size}`, ...(vcpus !== undefined ? { vcpus } : {}), ...(memory !== undefined ? { memoryGib: memory } : {}), family };
  });
}

const BANDWIDTH_DOC = 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-instance-network-bandwidth.html';

/** EC2's documented flow and gateway caps (the instance-bandwidth page, as of the catalogue's date). */
export const AWS_NETWORK_LIMITS: CloudCatalog['networkLimits'] = [
  { kind: 'single-flow', value: 5, unit: 'Gbit/s', applies: 'one TCP or UDP 5-tuple between instances not in the same cluster placement group', source: BANDWIDTH_DOC },
  { kind: 'single-flow', value: 10, unit: 'Gbit/s', applies: 'one flow between instances in the same cluster placement group', source: BANDWIDTH_DOC },
  { kind: 'single-flow', value: 25, unit: 'Gbit/s', applies: 'one flow with ENA Express between eligible instances in the same Availability Zone', source: BANDWIDTH_DOC },
  {
    kind: 'internet-egress',
    value: 5,
    unit: 'Gbit/s',
    applies: 'all flows through an internet or local gateway, instances with fewer than 32 vCPUs (32 or more: half the instance bandwidth, at least 5 Gbit/s)',
    source: BANDWIDTH_DOC,
  },
];

/**
 * Instance bandwidths the instance-bandwidth page states outright ("an
 * m5.8xlarge instance has 32 vCPUs and 10 Gbps network bandwidth, and an
 * m5.16xlarge instance has 64 vCPUs and 20 Gbps"). Smaller sizes (16 vCPUs or
 * fewer) are "up to" a figure: a baseline with burst credits for 5 to 60
 * minutes, on each family's page; only figures found are written here.
 */
const STATED_BANDWIDTH: Readonly<Record<string, number>> = { 'm5.8xlarge': 10, 'm5.16xlarge': 20 };

const statedBandwidth = (type: MachineType): MachineType => (STATED_BANDWIDTH[type.name] !== undefined ? { ...type, egressGbps: STATED_BANDWIDTH[type.name] } : type);

let built: CloudCatalog | undefined;

/**
 * Regions → zones and instance types for the desktop's pickers: built from
 * the curated tables in `catalog-data.ts` (no SDK, no network), once.
 */
export function awsCatalog(): CloudCatalog {
  built ??= {
    date: CATALOG_DATE,
    regions: Object.entries(REGION_ZONES).map(([name, letters]) => ({ name, zones: [...letters].map((letter) => `${name}${letter}`) })),
    machineTypes: SERIES.flatMap(typesOf).map(statedBandwidth),
    networkLimits: AWS_NETWORK_LIMITS,
  };
  return built;
}
