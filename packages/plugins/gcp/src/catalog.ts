import type { CloudCatalog } from '@netbench/plugin-api';

/**
 * What the desktop wizard offers for `cloud: gcp`: Compute Engine regions
 * with their zones, and machine types with vCPUs and memory. Compiled on the
 * date below from Google's "Regions and zones" and "Machine families resource
 * and comparison guide" pages (memory is GB as Google lists it, which GCE
 * sizes in GiB). Google adds regions and series every year: names outside
 * this list stay valid (the host schema checks only their shape). Pure data:
 * no SDK, no API call.
 */
const DATE = '2026-11-22';

/** Zones by region; most regions have a, b, c. */
const REGIONS: Readonly<Record<string, string>> = {
  'us-central1': 'abcf',
  'us-east1': 'bcd',
  'us-east4': 'abc',
  'us-east5': 'abc',
  'us-south1': 'abc',
  'us-west1': 'abc',
  'us-west2': 'abc',
  'us-west3': 'abc',
  'us-west4': 'abc',
  'northamerica-northeast1': 'abc',
  'northamerica-northeast2': 'abc',
  'northamerica-south1': 'abc',
  'southamerica-east1': 'abc',
  'southamerica-west1': 'abc',
  'europe-west1': 'bcd',
  'europe-west2': 'abc',
  'europe-west3': 'abc',
  'europe-west4': 'abc',
  'europe-west6': 'abc',
  'europe-west8': 'abc',
  'europe-west9': 'abc',
  'europe-west10': 'abc',
  'europe-west12': 'abc',
  'europe-north1': 'abc',
  'europe-central2': 'abc',
  'europe-southwest1': 'abc',
  'me-west1': 'abc',
  'me-central1': 'abc',
  'me-central2': 'abc',
  'africa-south1': 'abc',
  'asia-east1': 'abc',
  'asia-east2': 'abc',
  'asia-northeast1': 'abc',
  'asia-northeast2': 'abc',
  'asia-northeast3': 'abc',
  'asia-south1': 'abc',
  'asia-south2': 'abc',
  'asia-southeast1': 'abc',
  'asia-southeast2': 'abc',
  'australia-southeast1': 'abc',
  'australia-southeast2': 'abc',
};

const GENERAL = 'general purpose';
const COST = 'general purpose (cost-optimized)';
const COMPUTE = 'compute optimized';

/** A predefined shape of a series: `<series>-<shape>-<vcpus>` with a fixed memory per vCPU. */
interface Shape {
  readonly series: string;
  readonly shape: 'standard' | 'highmem' | 'highcpu';
  readonly family: string;
  readonly gbPerVcpu: number;
  readonly sizes: readonly number[];
}

const SHAPES: readonly Shape[] = [
  { series: 'e2', shape: 'standard', family: COST, gbPerVcpu: 4, sizes: [2, 4, 8, 16, 32] },
  { series: 'e2', shape: 'highmem', family: COST, gbPerVcpu: 8, sizes: [2, 4, 8, 16] },
  { series: 'e2', shape: 'highcpu', family: COST, gbPerVcpu: 1, sizes: [2, 4, 8, 16, 32] },
  { series: 'n1', shape: 'standard', family: GENERAL, gbPerVcpu: 3.75, sizes: [1, 2, 4, 8, 16, 32, 64, 96] },
  { series: 'n1', shape: 'highmem', family: GENERAL, gbPerVcpu: 6.5, sizes: [2, 4, 8, 16, 32, 64, 96] },
  { series: 'n1', shape: 'highcpu', family: GENERAL, gbPerVcpu: 0.9, sizes: [2, 4, 8, 16, 32, 64, 96] },
  { series: 'n2', shape: 'standard', family: GENERAL, gbPerVcpu: 4, sizes: [2, 4, 8, 16, 32, 48, 64, 80, 96, 128] },
  { series: 'n2', shape: 'highmem', family: GENERAL, gbPerVcpu: 8, sizes: [2, 4, 8, 16, 32, 48, 64, 80, 96, 128] },
  { series: 'n2', shape: 'highcpu', family: GENERAL, gbPerVcpu: 1, sizes: [2, 4, 8, 16, 32, 48, 64, 80, 96] },
  { series: 'n2d', shape: 'standard', family: GENERAL, gbPerVcpu: 4, sizes: [2, 4, 8, 16, 32, 48, 64, 80, 96, 128, 224] },
  { series: 'n2d', shape: 'highmem', family: GENERAL, gbPerVcpu: 8, sizes: [2, 4, 8, 16, 32, 48, 64, 80, 96] },
  { series: 'n2d', shape: 'highcpu', family: GENERAL, gbPerVcpu: 1, sizes: [2, 4, 8, 16, 32, 48, 64, 80, 96, 128, 224] },
  { series: 'n4', shape: 'standard', family: GENERAL, gbPerVcpu: 4, sizes: [2, 4, 8, 16, 32, 48, 64, 80] },
  { series: 'n4', shape: 'highmem', family: GENERAL, gbPerVcpu: 8, sizes: [2, 4, 8, 16, 32, 48, 64, 80] },
  { series: 'n4', shape: 'highcpu', family: GENERAL, gbPerVcpu: 2, sizes: [2, 4, 8, 16, 32, 48, 64, 80] },
  { series: 't2d', shape: 'standard', family: GENERAL, gbPerVcpu: 4, sizes: [1, 2, 4, 8, 16, 32, 48, 60] },
  { series: 'c3', shape: 'standard', family: GENERAL, gbPerVcpu: 4, sizes: [4, 8, 22, 44, 88, 176] },
  { series: 'c3', shape: 'highmem', family: GENERAL, gbPerVcpu: 8, sizes: [4, 8, 22, 44, 88, 176] },
  { series: 'c3', shape: 'highcpu', family: GENERAL, gbPerVcpu: 2, sizes: [4, 8, 22, 44, 88, 176] },
  { series: 'c3d', shape: 'standard', family: GENERAL, gbPerVcpu: 4, sizes: [4, 8, 16, 30, 60, 90, 180, 360] },
  { series: 'c3d', shape: 'highmem', family: GENERAL, gbPerVcpu: 8, sizes: [4, 8, 16, 30, 60, 90, 180, 360] },
  { series: 'c3d', shape: 'highcpu', family: GENERAL, gbPerVcpu: 2, sizes: [4, 8, 16, 30, 60, 90, 180, 360] },
  { series: 'c2', shape: 'standard', family: COMPUTE, gbPerVcpu: 4, sizes: [4, 8, 16, 30, 60] },
  { series: 'c2d', shape: 'standard', family: COMPUTE, gbPerVcpu: 4, sizes: [2, 4, 8, 16, 32, 56, 112] },
  { series: 'c2d', shape: 'highmem', family: COMPUTE, gbPerVcpu: 8, sizes: [2, 4, 8, 16, 32, 56, 112] },
  { series: 'c2d', shape: 'highcpu', family: COMPUTE, gbPerVcpu: 2, sizes: [2, 4, 8, 16, 32, 56, 112] },
];

type MachineType = CloudCatalog['machineTypes'][number];

/** Types whose memory is not vCPUs × a constant. */
const IRREGULAR: readonly MachineType[] = [
  // Shared-core E2: 2 vCPUs time-sliced (0.25, 0.5, 1 of a core).
  { name: 'e2-micro', vcpus: 2, memoryGib: 1, family: COST },
  { name: 'e2-small', vcpus: 2, memoryGib: 2, family: COST },
  { name: 'e2-medium', vcpus: 2, memoryGib: 4, family: COST },
  // C4 standard: 3.75 GB per vCPU, but 7 GB for 2 vCPUs.
  ...(
    [
      [2, 7],
      [4, 15],
      [8, 30],
      [16, 60],
      [32, 120],
      [48, 180],
      [96, 360],
      [192, 720],
    ] as const
  ).map(([vcpus, memoryGib]) => ({ name: `c4-standard-${vcpus}`, vcpus, memoryGib, family: GENERAL })),
  { name: 'h3-standard-88', vcpus: 88, memoryGib: 352, family: COMPUTE },
];

const round2 = (n: number) => Math.round(n * 100) / 100;

const BANDWIDTH_DOC = 'https://cloud.google.com/compute/docs/network-bandwidth';

/**
 * N1's per-VM egress within a VPC: 2 Gbit/s per vCPU (the page's example:
 * n1-standard-8, 16 Gbit/s), at most 32 Gbit/s. Other series have caps of
 * their own on the machine-family pages; they are not listed here.
 */
const n1Egress = (type: CloudCatalog['machineTypes'][number]) =>
  type.name.startsWith('n1-') && type.vcpus !== undefined ? { ...type, egressGbps: Math.min(32, 2 * type.vcpus) } : type;

/**
 * Per-type egress caps the network-bandwidth page states outright (its
 * example: "a C3 VM with 22 vCPUs is limited to 23 Gbps total egress
 * bandwidth", whatever its vNICs). Only figures found there are written.
 */
const STATED_EGRESS: Readonly<Record<string, number>> = { 'c3-standard-22': 23, 'c3-highmem-22': 23, 'c3-highcpu-22': 23 };

const statedEgress = (type: CloudCatalog['machineTypes'][number]) => (STATED_EGRESS[type.name] !== undefined ? { ...type, egressGbps: STATED_EGRESS[type.name] } : type);

export const GCP_NETWORK_LIMITS: CloudCatalog['networkLimits'] = [
  {
    kind: 'egress',
    value: 2,
    unit: 'Gbit/s',
    applies: 'per vCPU of the sending VM (N1: n1-standard-8 is limited to 16 Gbit/s, whatever its NICs), within the VPC network; other series per their machine-family pages',
    source: BANDWIDTH_DOC,
  },
];

export const GCP_CATALOG: CloudCatalog = {
  date: DATE,
  regions: Object.entries(REGIONS).map(([name, letters]) => ({ name, zones: [...letters].map((l) => `${name}-${l}`) })),
  machineTypes: [
    ...SHAPES.flatMap((s) => s.sizes.map((vcpus) => ({ name: `${s.series}-${s.shape}-${vcpus}`, vcpus, memoryGib: round2(vcpus * s.gbPerVcpu), family: s.family }))),
    ...IRREGULAR,
  ]
    .map(n1Egress)
    .map(statedEgress),
  networkLimits: GCP_NETWORK_LIMITS,
};
