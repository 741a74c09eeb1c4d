import type { CostEstimate, CostItem, CostUsage, HostRequest } from '../plugin/index.js';

/** Where a host runs and on what, in the price table's terms. */
export interface PricedSite {
  readonly zone: string;
  readonly region: string;
  readonly machineType: string;
}

/** The part of a cloud's price table the estimate reads (the cloud's own table type has more). */
export interface RegionalPriceTable {
  /** ISO date the prices were compiled. */
  readonly date: string;
  /** $/hour in the base region, by machine type. */
  readonly instances: Readonly<Record<string, number>>;
  /** Exact $/hour by region and machine type, when known, over base × multiplier. */
  readonly regional?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly egress: {
    /** Between zones of one region, per unit. */
    readonly interZone: number;
    /** Between regions, per unit, by `continent>continent` (looked up both ways; missing pairs at the dearest). */
    readonly interRegion: Readonly<Record<string, number>>;
  };
}

/** How one cloud prices its hosts from a `RegionalPriceTable`. */
export interface TableCostModel<C> {
  readonly table: RegionalPriceTable;
  /** Notes so far (from loading the table); the estimate adds its own. */
  readonly notes?: readonly string[];
  /** Region price relative to the base region (1, with a note, for a region not listed). */
  readonly multipliers: Readonly<Record<string, number>>;
  /** The region `instances` are priced in, named in that note. */
  readonly baseRegion: string;
  /** Transfer is billed per GiB (2^30 bytes) or per GB (10^9 bytes). */
  readonly unit: 'GiB' | 'GB';
  /** What the cloud calls transfer, first word of its lines: `egress`, `data transfer`. */
  readonly transferName: string;
  /** Say so when inter-zone transfer costs $0 in the table (a cloud that did not bill it at the table's date). */
  readonly noteFreeInterZone?: boolean;
  site(config: C): PricedSite;
  continentOf(region: string): string;
  /** bit/s a flow without a target rate is counted at: the sender's cap (`to` undefined: the host is outside this cloud). */
  capBps(from: C, to: C | undefined): number;
  /** Per-unit prices to the internet by source continent (`NA` when the continent is missing), and what qualifies the line (e.g. `premium tier`). */
  internet(from: C): { readonly prices: Readonly<Record<string, number>>; readonly label?: string };
}

const round = (usd: number) => Math.round(usd * 10_000) / 10_000;
/** Quantities to 6 significant decimals: exact enough, readable in `netbench plan`. */
const qty = (n: number) => Math.round(n * 1e6) / 1e6;

function hourly<C>(model: TableCostModel<C>, machineType: string, region: string, notes: string[]): number {
  const exact = model.table.regional?.[region]?.[machineType];
  if (exact !== undefined) return exact;
  const base = model.table.instances[machineType];
  if (base === undefined) {
    notes.push(`no price for ${machineType}: counted as $0 (add it to the price file)`);
    return 0;
  }
  const multiplier = model.multipliers[region];
  if (multiplier === undefined) notes.push(`no price multiplier for ${region}: ${model.baseRegion} prices used`);
  return base * (multiplier ?? 1);
}

function interRegion<C>(model: TableCostModel<C>, a: string, b: string): number {
  const pairs = model.table.egress.interRegion;
  const ca = model.continentOf(a);
  const cb = model.continentOf(b);
  return pairs[`${ca}>${cb}`] ?? pairs[`${cb}>${ca}`] ?? Math.max(...Object.values(pairs));
}

/** Price and line of the path a flow takes from `from`; undefined inside one zone (free). */
function transferPath<C>(model: TableCostModel<C>, from: C, to: C | undefined, target: string, notes: string[]): { price: number; what: string } | undefined {
  const a = model.site(from);
  const b = to === undefined ? undefined : model.site(to);
  const name = model.transferName;
  if (b && b.zone === a.zone) return undefined;
  if (b && b.region === a.region) {
    const price = model.table.egress.interZone;
    if (price === 0 && model.noteFreeInterZone) notes.push(`inter-zone ${name} counted at $0 (not billed as of the table date)`);
    return { price, what: `${name} ${a.zone} → ${b.zone} (inter-zone)` };
  }
  if (b) return { price: interRegion(model, a.region, b.region), what: `${name} ${a.region} → ${b.region} (inter-region)` };
  const { prices, label } = model.internet(from);
  return { price: prices[model.continentOf(a.region)] ?? prices['NA']!, what: `${name} ${a.region} → internet (${target}${label ? `, ${label}` : ''})` };
}

/**
 * Instance-hours from the price table (one line per machine type and
 * region), plus transfer for every flow a host of this cloud sends (one line
 * per path): free within a zone, `interZone` across zones, continent-pair
 * prices across regions, internet prices to hosts outside this cloud. Flows
 * whose sender is elsewhere are billed to the sender's cloud. A flow with no
 * rate is counted at the sender's cap, with a note.
 */
export function estimateTableCost<C>(requests: readonly HostRequest<C>[], usage: CostUsage, model: TableCostModel<C>): CostEstimate {
  const notes = [...(model.notes ?? [])];
  const items: CostItem[] = [];
  const configs = new Map<string, C>(requests.map((r) => [r.id, r.config]));

  const groups = new Map<string, { machineType: string; region: string; hours: number; hosts: number }>();
  for (const r of requests) {
    const { machineType, region } = model.site(r.config);
    const key = `${machineType}@${region}`;
    const group = groups.get(key) ?? { machineType, region, hours: 0, hosts: 0 };
    group.hours += (usage.hostSeconds[r.id] ?? 0) / 3600;
    group.hosts += 1;
    groups.set(key, group);
  }
  for (const g of groups.values()) {
    const price = hourly(model, g.machineType, g.region, notes);
    items.push({
      description: `${g.machineType} in ${g.region} (${g.hosts} host${g.hosts > 1 ? 's' : ''})`,
      quantity: qty(g.hours),
      unit: 'instance-hour',
      unitPriceUsd: price,
      usd: round(g.hours * price),
    });
  }

  const bytesPerUnit = model.unit === 'GiB' ? 2 ** 30 : 1e9;
  const transfer = new Map<string, { amount: number; price: number }>();
  for (const flow of usage.flows) {
    const from = configs.get(flow.from);
    if (from === undefined) continue;
    const to = configs.get(flow.to);
    const path = transferPath(model, from, to, flow.to, notes);
    if (!path) continue;
    const bps = flow.bitsPerSecond ?? model.capBps(from, to);
    if (flow.bitsPerSecond === undefined) notes.push(`flows without a target rate counted at the ${model.site(from).machineType} bandwidth of ${bps / 1e9} Gbit/s`);
    // Many trials between the same hosts: one line per path.
    const amount = (bps * flow.seconds) / 8 / bytesPerUnit;
    const same = transfer.get(path.what);
    if (same) same.amount += amount;
    else transfer.set(path.what, { amount, price: path.price });
  }
  for (const [what, { amount, price }] of transfer) {
    items.push({ description: what, quantity: qty(amount), unit: model.unit, unitPriceUsd: price, usd: round(amount * price) });
  }
  return { usd: round(items.reduce((sum, i) => sum + i.usd, 0)), items, priceTableDate: model.table.date, notes: [...new Set(notes)] };
}
