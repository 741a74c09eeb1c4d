import type { CloudCatalog } from '@netbench/plugin-api';

/**
 * What the desktop wizard offers for `cloud: azure`: a curated, dated list —
 * Azure adds locations and sizes every year, and any name the host schema
 * accepts stays valid. Pure data: no SDK, no network.
 *
 * Zones are written as the host schema's `zone` takes them: `eastus-2` is
 * location eastus, availability zone 2 (PKB's spelling). Locations with
 * availability zones have zones 1, 2 and 3; a location without them lists
 * itself (`zone: westus`). The bare location is valid for any location
 * (no zone pinned) but is not listed where zones exist.
 *
 * Sizes: every size of the price table (src/price-table.ts) plus a few more,
 * with vCPUs and memory from Microsoft's size pages ("Sizes for virtual
 * machines in Azure": B, Dsv3, Dsv5, Dasv5, Ddsv5, Fsv2, Esv5 series), as of
 * the date below. x86-64 only: the default image is the amd64 Ubuntu LTS.
 */
const az = (location: string) => ({ name: location, zones: [1, 2, 3].map((n) => `${location}-${n}`) });
const noAz = (location: string) => ({ name: location, zones: [location] });

type Size = CloudCatalog['machineTypes'][number];
const series = (family: string, prefix: string, suffix: string, gibPerVcpu: number, vcpus: readonly number[]): Size[] =>
  vcpus.map((n) => ({ name: `Standard_${prefix}${n}${suffix}`, vcpus: n, memoryGib: n * gibPerVcpu, family }));

/**
 * "Max network bandwidth (Mbps)" of the Dsv5 sizes, from the series page
 * (https://learn.microsoft.com/en-us/azure/virtual-machines/dv5-dsv5-series),
 * in Gbit/s: 12,500 Mbps up to 16 vCPUs, then 16,000, 24,000, 30,000.
 * Other series' tables are not transcribed (not guessed).
 */
const DSV5_BANDWIDTH_GBPS: Readonly<Record<number, number>> = { 2: 12.5, 4: 12.5, 8: 12.5, 16: 12.5, 32: 16, 48: 24, 64: 30 };

const withBandwidth = (sizes: Size[], gbps: Readonly<Record<number, number>>): Size[] =>
  sizes.map((size) => (size.vcpus !== undefined && gbps[size.vcpus] !== undefined ? { ...size, egressGbps: gbps[size.vcpus] } : size));

const THROUGHPUT_DOC = 'https://learn.microsoft.com/en-us/azure/virtual-network/virtual-machine-network-throughput';

/**
 * Azure's documented flow limits (the VM network-throughput page). Egress is
 * metered per VM size (all destinations, all NICs together); the sizes'
 * expected bandwidths are on each series' page (Dsv5's are on its sizes).
 */
export const AZURE_NETWORK_LIMITS: CloudCatalog['networkLimits'] = [
  {
    kind: 'flows',
    value: 250_000,
    unit: 'flows',
    applies: 'total flows with good performance, VMs with 8 or more vCPUs (a TCP/UDP connection is two flows)',
    source: THROUGHPUT_DOC,
  },
  { kind: 'flows', value: 100_000, unit: 'flows', applies: 'total flows with good performance, VMs with fewer than 8 vCPUs', source: THROUGHPUT_DOC },
  { kind: 'flows', value: 1_000_000, unit: 'flows', applies: 'hard limit: 500,000 inbound and 500,000 outbound; further flows are dropped', source: THROUGHPUT_DOC },
];

export const AZURE_CATALOG: CloudCatalog = {
  date: '2026-11-22',
  regions: [
    // Americas
    az('eastus'),
    az('eastus2'),
    az('centralus'),
    az('southcentralus'),
    az('westus2'),
    az('westus3'),
    noAz('westus'),
    noAz('northcentralus'),
    noAz('westcentralus'),
    az('canadacentral'),
    noAz('canadaeast'),
    az('brazilsouth'),
    az('mexicocentral'),
    // Europe
    az('northeurope'),
    az('westeurope'),
    az('uksouth'),
    noAz('ukwest'),
    az('francecentral'),
    az('germanywestcentral'),
    az('swedencentral'),
    az('norwayeast'),
    az('switzerlandnorth'),
    az('polandcentral'),
    az('italynorth'),
    az('spaincentral'),
    // Middle East, Africa
    az('uaenorth'),
    az('qatarcentral'),
    az('israelcentral'),
    az('southafricanorth'),
    // Asia Pacific
    az('centralindia'),
    noAz('southindia'),
    az('japaneast'),
    noAz('japanwest'),
    az('koreacentral'),
    az('southeastasia'),
    az('eastasia'),
    az('australiaeast'),
    noAz('australiasoutheast'),
    az('newzealandnorth'),
  ],
  machineTypes: [
    { name: 'Standard_B1s', vcpus: 1, memoryGib: 1, family: 'burstable' },
    { name: 'Standard_B2s', vcpus: 2, memoryGib: 4, family: 'burstable' },
    { name: 'Standard_B2ms', vcpus: 2, memoryGib: 8, family: 'burstable' },
    { name: 'Standard_B4ms', vcpus: 4, memoryGib: 16, family: 'burstable' },
    ...withBandwidth(series('general purpose', 'D', 's_v5', 4, [2, 4, 8, 16, 32, 48, 64]), DSV5_BANDWIDTH_GBPS),
    ...series('general purpose (AMD)', 'D', 'as_v5', 4, [2, 4, 8, 16, 32]),
    ...series('general purpose (local disk)', 'D', 'ds_v5', 4, [2, 4, 8, 16]),
    ...series('general purpose (previous generation)', 'D', 's_v3', 4, [2, 4, 8, 16, 32]),
    ...series('compute optimized', 'F', 's_v2', 2, [2, 4, 8, 16, 32, 48, 64, 72]),
    ...series('memory optimized', 'E', 's_v5', 8, [2, 4, 8, 16]),
  ],
  networkLimits: AZURE_NETWORK_LIMITS,
};
