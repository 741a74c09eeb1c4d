import type { CostEstimate, CostItem, CostUsage, HostRequest } from '@netbench/plugin-api';
import type { AwsHostConfig } from './host-schema.js';
import { instanceTypeFacts, type PriceTable } from './prices.js';
import { regionOf } from './region.js';

/** Beyond its region (other regions, the internet) an instance below 32 vCPUs gets at most 5 Gbit/s, larger ones half their bandwidth. */
const OUTSIDE_REGION_GBPS = 5;
const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

interface Site {
  readonly zone: string;
  readonly region: string;
  readonly machineType: string;
}

/**
 * Instance-hours at on-demand prices, plus egress for the flows AWS hosts
 * send: nothing in one zone, both sides of an inter-AZ flow, the source
 * region's inter-region rate, internet rate to hosts outside AWS. Flows with
 * no target rate are priced at the machine type's bandwidth (the worst case).
 */
export function estimateAwsCost(requests: readonly HostRequest<AwsHostConfig>[], usage: CostUsage, table: PriceTable): CostEstimate {
  const notes: string[] = [];
  const items: CostItem[] = [];
  const sites = new Map<string, Site>(requests.map((r) => [r.id, { zone: r.config.zone, region: regionOf(r.config.zone), machineType: r.config.machineType }]));

  // Instance-hours, one line per type and region.
  const groups = new Map<string, { type: string; region: string; hosts: number; hours: number }>();
  for (const request of requests) {
    const site = sites.get(request.id)!;
    const key = `${site.machineType} ${site.region}`;
    const group = groups.get(key) ?? { type: site.machineType, region: site.region, hosts: 0, hours: 0 };
    group.hosts += 1;
    group.hours += (usage.hostSeconds[request.id] ?? 0) / 3600;
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const price = table.hourly[group.region]?.[group.type];
    if (price === undefined) notes.push(`no price for ${group.type} in ${group.region} in the table of ${table.date}: not counted (set NETBENCH_AWS_PRICES)`);
    const unit = price ?? 0;
    items.push({
      description: `${group.type} in ${group.region} (${group.hosts} host${group.hosts === 1 ? '' : 's'})`,
      quantity: round(group.hours),
      unit: 'instance-hour',
      unitPriceUsd: unit,
      usd: round(group.hours * unit),
    });
  }

  // Egress, one line per kind of path.
  const egress = new Map<string, { gb: number; price: number }>();
  for (const flow of usage.flows) {
    const from = sites.get(flow.from);
    if (!from) continue; // another cloud's host sends: its plugin prices it
    const to = sites.get(flow.to);
    const path = pathOf(from, to, table);
    if (path.price === 0) continue;
    const bitsPerSecond = flow.bitsPerSecond ?? capBitsPerSecond(from, to, table, notes);
    const gb = (bitsPerSecond * flow.seconds) / 8 / 1e9;
    const line = egress.get(path.description) ?? { gb: 0, price: path.price };
    line.gb += gb;
    egress.set(path.description, line);
  }
  for (const [description, { gb, price }] of egress) {
    items.push({ description, quantity: round(gb, 3), unit: 'GB', unitPriceUsd: price, usd: round(gb * price) });
  }
  return {
    usd: round(
      items.reduce((sum, item) => sum + item.usd, 0),
      2,
    ),
    items,
    priceTableDate: table.date,
    ...(notes.length ? { notes: [...new Set(notes)] } : {}),
  };
}

function pathOf(from: Site, to: Site | undefined, table: PriceTable): { description: string; price: number } {
  const { egress } = table;
  if (!to) {
    const price = egress.internetPerGb.from[from.region] ?? egress.internetPerGb.default;
    return { description: `egress ${from.region} → outside AWS`, price };
  }
  if (to.zone === from.zone) return { description: `within ${from.zone}`, price: egress.sameZonePerGb };
  if (to.region === from.region) return { description: `inter-AZ ${from.region} (out + in)`, price: 2 * egress.interZonePerGbEachWay };
  const price = egress.interRegionPerGb.pairs[`${from.region}>${to.region}`] ?? egress.interRegionPerGb.from[from.region] ?? egress.interRegionPerGb.default;
  return { description: `inter-region ${from.region} → ${to.region}`, price };
}

/** The fastest the sender (and receiver, when known) can go on this path, in bits/s. */
function capBitsPerSecond(from: Site, to: Site | undefined, table: PriceTable, notes: string[]): number {
  const sender = instanceTypeFacts(table, from.machineType);
  if (sender.gbps === undefined) notes.push(`no bandwidth known for ${from.machineType}: flows without a rate assumed at 10 Gbit/s`);
  let gbps = sender.gbps ?? 10;
  if (to && to.region === from.region) {
    const receiver = instanceTypeFacts(table, to.machineType).gbps;
    if (receiver !== undefined) gbps = Math.min(gbps, receiver);
  } else {
    gbps = (sender.vcpus ?? 0) >= 32 ? gbps / 2 : Math.min(gbps, OUTSIDE_REGION_GBPS);
  }
  return gbps * 1e9;
}
