import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CostEstimate, CostItem, CostUsage, HostRequest } from '@netbench/core';
import { tierOf, type GcpHostConfig } from './host-schema.js';
import { regionOf } from './naming.js';
import { continentOf, GCP_PRICES, type GcpPriceTable } from './price-table.js';

const GIB = 2 ** 30;
const round = (usd: number) => Math.round(usd * 10_000) / 10_000;
/** Quantities to 6 significant decimals: exact enough, readable in `netbench plan`. */
const qty = (n: number) => Math.round(n * 1e6) / 1e6;

/** `$NETBENCH_GCP_PRICES`, else `$NETBENCH_HOME/prices/gcp.json` (`~/.netbench/prices/gcp.json`). */
export const defaultPriceFile = () => process.env['NETBENCH_GCP_PRICES'] ?? join(process.env['NETBENCH_HOME'] ?? join(homedir(), '.netbench'), 'prices', 'gcp.json');

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
function merge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObject(v) && isObject(base[k]) ? merge(base[k] as Json, v) : v;
  return out;
}

/** The shipped table with the user's file (if any) merged over it, entry by entry. */
export function loadPrices(file = defaultPriceFile()): { table: GcpPriceTable; notes: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { table: GCP_PRICES, notes: [] };
  }
  try {
    const table = merge(GCP_PRICES as unknown as Json, JSON.parse(text) as Json) as unknown as GcpPriceTable;
    return { table, notes: [`prices from ${file} over the shipped table`] };
  } catch (error) {
    return { table: GCP_PRICES, notes: [`ignored ${file}: ${(error as Error).message}`] };
  }
}

/** vCPUs of a machine type, from its name (`n2-standard-16` → 16); shared-core types count 2. */
const vcpus = (machineType: string) => Number(/-(\d+)$/.exec(machineType)?.[1] ?? 2);
/** Per-VM egress cap: 2 Gbit/s per vCPU up to 32 (default networking); 7 Gbit/s leaving Google. */
const capBps = (machineType: string, internet: boolean) => Math.min(2e9 * vcpus(machineType), internet ? 7e9 : 32e9);

function hourly(table: GcpPriceTable, machineType: string, region: string, notes: string[]): number {
  const exact = table.regional?.[region]?.[machineType];
  if (exact !== undefined) return exact;
  const base = table.instances[machineType];
  if (base === undefined) {
    notes.push(`no price for ${machineType}: counted as $0 (add it to the price file)`);
    return 0;
  }
  const multiplier = table.regionMultiplier[region];
  if (multiplier === undefined) notes.push(`no price multiplier for ${region}: us-central1 prices used`);
  return base * (multiplier ?? 1);
}

function interRegion(table: GcpPriceTable, a: string, b: string): number {
  const ca = continentOf(a);
  const cb = continentOf(b);
  return table.egress.interRegion[`${ca}>${cb}`] ?? table.egress.interRegion[`${cb}>${ca}`] ?? Math.max(...Object.values(table.egress.interRegion));
}

/**
 * Instance-hours from the price table, plus egress for every flow a GCP host
 * sends: free within a zone (internal addresses), `interZone` across zones,
 * continent-pair prices across regions, internet prices by network tier to
 * hosts outside GCP. A flow with no rate is counted at the machine's cap.
 */
export function estimateGcpCost(requests: readonly HostRequest<GcpHostConfig>[], usage: CostUsage, priceFile?: string): CostEstimate {
  const { table, notes } = loadPrices(priceFile);
  const items: CostItem[] = [];
  const byId = new Map(requests.map((r) => [r.id, r]));

  const groups = new Map<string, { machineType: string; region: string; hours: number; hosts: number }>();
  for (const r of requests) {
    const region = regionOf(r.config.zone);
    const key = `${r.config.machineType}@${region}`;
    const group = groups.get(key) ?? { machineType: r.config.machineType, region, hours: 0, hosts: 0 };
    group.hours += (usage.hostSeconds[r.id] ?? 0) / 3600;
    group.hosts += 1;
    groups.set(key, group);
  }
  for (const g of groups.values()) {
    const price = hourly(table, g.machineType, g.region, notes);
    items.push({ description: `${g.machineType} in ${g.region} (${g.hosts} host${g.hosts > 1 ? 's' : ''})`, quantity: qty(g.hours), unit: 'instance-hour', unitPriceUsd: price, usd: round(g.hours * price) });
  }

  const egress = new Map<string, { gib: number; price: number }>();
  for (const flow of usage.flows) {
    const from = byId.get(flow.from);
    if (!from) continue; // egress is billed to the sender's cloud
    const to = byId.get(flow.to);
    const fromRegion = regionOf(from.config.zone);
    const bps = flow.bitsPerSecond ?? capBps(from.config.machineType, !to);
    const gib = (bps * flow.seconds) / 8 / GIB;
    let price: number;
    let what: string;
    if (to && to.config.zone === from.config.zone) continue;
    if (to && regionOf(to.config.zone) === fromRegion) {
      price = table.egress.interZone;
      what = `egress ${from.config.zone} → ${to.config.zone} (inter-zone)`;
    } else if (to) {
      price = interRegion(table, fromRegion, regionOf(to.config.zone));
      what = `egress ${fromRegion} → ${regionOf(to.config.zone)} (inter-region)`;
    } else {
      const tier = tierOf(from.config);
      price = table.egress.internet[tier][continentOf(fromRegion)] ?? table.egress.internet[tier]['NA']!;
      what = `egress ${fromRegion} → internet (${flow.to}, ${tier.toLowerCase()} tier)`;
    }
    if (flow.bitsPerSecond === undefined) notes.push(`flows without a target rate counted at the ${from.config.machineType} bandwidth of ${bps / 1e9} Gbit/s`);
    // Many trials between the same hosts: one line per path.
    const same = egress.get(what);
    if (same) same.gib += gib;
    else egress.set(what, { gib, price });
  }
  for (const [what, { gib, price }] of egress) {
    items.push({ description: what, quantity: qty(gib), unit: 'GiB', unitPriceUsd: price, usd: round(gib * price) });
  }
  return { usd: round(items.reduce((sum, i) => sum + i.usd, 0)), items, priceTableDate: table.date, notes: [...new Set(notes)] };
}
