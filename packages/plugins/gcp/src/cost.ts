import type { CostEstimate, CostItem, CostUsage, HostRequest } from '@netbench/plugin-api';
import { estimateTableCost, loadPriceFile, priceFilePath } from '@netbench/plugin-api/cloud-kit';
import { HA_INTERFACES, haVpnResourceCounts } from './ha-vpn.js';
import { type GcpHostConfig, type GcpVpnConfig, tierOf } from './host-schema.js';
import { regionOf } from './naming.js';
import { continentOf, GCP_PRICES, type GcpPriceTable } from './price-table.js';
import { TYPES } from './resources.js';
import { vpnResourceCounts } from './vpn.js';

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
  const base = estimateTableCost(requests, usage, {
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
  return withVpn(base, requests, usage, table);
}

/** What the VPN makes, for `plan`: one line naming every kind of resource and how many. */
function vpnResourcesNote(vpn: GcpVpnConfig, requests: readonly HostRequest<GcpHostConfig>[]): string {
  const groups = [...new Set(requests.map((r) => r.config.vpcGroup ?? '?'))].sort();
  const ranges = groups.map((g) => new Set(requests.filter((r) => r.config.vpcGroup === g).map((r) => regionOf(r.config.zone))).size);
  const counts = vpn.type === 'ha' ? haVpnResourceCounts(vpn) : vpnResourceCounts(vpn, [ranges[0] ?? 1, ranges[1] ?? 1]);
  const names: Record<string, string> = {
    [TYPES.router]: 'Cloud Routers (BGP)',
    [TYPES.haVpnGateway]: 'HA VPN gateways (2 interfaces each)',
    [TYPES.address]: 'external addresses',
    [TYPES.vpnGateway]: 'target VPN gateways',
    [TYPES.forwardingRule]: 'forwarding rules (ESP, UDP 500, UDP 4500)',
    [TYPES.vpnTunnel]: 'VPN tunnels',
    [TYPES.route]: 'static routes',
  };
  const what = Object.entries(counts)
    .map(([type, n]) => `${n} ${names[type] ?? type}`)
    .join(', ');
  return `Cloud VPN (${vpn.type}, ${vpn.routing} routing, IKEv${vpn.ikeVersion}) between ${groups.join(' and ')}: ${what}`;
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

/**
 * A run's Classic VPN (`vpn` on its hosts): every tunnel and gateway address
 * for as long as the run's longest-lived host exists (they are made before
 * the hosts and deleted after). Traffic through the tunnels is already in
 * the egress items (internal addresses across regions).
 */
function withVpn(base: CostEstimate, requests: readonly HostRequest<GcpHostConfig>[], usage: CostUsage, table: GcpPriceTable): CostEstimate {
  const vpn = requests.find((r) => r.config.vpn)?.config.vpn;
  if (!vpn) return base;
  const prices = table.vpn ?? GCP_PRICES.vpn!;
  const hours = Math.max(0, ...requests.map((r) => usage.hostSeconds[r.id] ?? 0)) / 3600;
  const gateways = 2 * vpn.gateways;
  if (vpn.type === 'ha') {
    // HA VPN: tunnels at the same tunnel-hour price as Classic; its interface addresses and Cloud Router are not charged.
    const haTunnels = gateways * HA_INTERFACES.length * vpn.tunnels;
    const item: CostItem = {
      description: `HA VPN tunnels (${haTunnels}: ${vpn.tunnels} per interface pair each way, 2 interfaces per gateway, ${vpn.gateways} gateway(s) per network)`,
      quantity: round(haTunnels * hours),
      unit: 'tunnel-hour',
      unitPriceUsd: prices.tunnelHour,
      usd: round(haTunnels * hours * prices.tunnelHour),
    };
    return {
      ...base,
      items: [...base.items, item],
      usd: round(base.usd + item.usd),
      notes: [
        ...(base.notes ?? []),
        vpnResourcesNote(vpn, requests),
        "HA VPN at us-region list prices (tunnel-hours); Cloud Router has no charge of its own and the HA VPN gateway addresses are not billed; traffic through the tunnels is priced as egress between the hosts' regions",
      ],
    };
  }
  const tunnels = gateways * vpn.tunnels;
  const items: CostItem[] = [
    {
      description: `Cloud VPN tunnels (${tunnels}: ${vpn.tunnels} per gateway pair each way, ${vpn.gateways} gateway(s) per network)`,
      quantity: round(tunnels * hours),
      unit: 'tunnel-hour',
      unitPriceUsd: prices.tunnelHour,
      usd: round(tunnels * hours * prices.tunnelHour),
    },
    {
      description: `Cloud VPN gateway addresses (${gateways})`,
      quantity: round(gateways * hours),
      unit: 'address-hour',
      unitPriceUsd: prices.addressHour,
      usd: round(gateways * hours * prices.addressHour),
    },
  ];
  return {
    ...base,
    items: [...base.items, ...items],
    usd: round(base.usd + items.reduce((sum, i) => sum + i.usd, 0)),
    notes: [
      ...(base.notes ?? []),
      vpnResourcesNote(vpn, requests),
      "Cloud VPN at us-region list prices; traffic through the tunnels is priced as egress between the hosts' regions",
    ],
  };
}
