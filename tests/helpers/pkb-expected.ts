import { join } from 'node:path';
import { expect } from 'vitest';
import { repoRoot } from './cli.js';

// PerfKit Benchmarker configs from the reference documents (tests/fixtures/pkb:
// pkb-configs/*.yaml verbatim, the whitepaper's own printings where they differ,
// and its command lines written as configs), and the trials PKB runs for each.
// How PKB counts, from its benchmark code:
//  - netperf: vms[0] → vms[1], once per num_streams × test × address;
//  - iperf: each VM sends to the other, per protocol × thread count × address;
//  - ping: each VM pings the other (`ping -c 100`), per address;
//  - addresses (--ip_addresses, default INTERNAL since January 2024; REACHABLE
//    before): internal only. Where the VMs cannot reach each other's internal
//    addresses (across clouds, to a static machine without internal_ip,
//    separate cidrs) PKB would fail; netbench measures the external address
//    and warns. The removed ping_also_run_using_external_ip is ignored (warned).
// So the whitepaper's fmatrix (6 zone pairs × 4 tests × 3 stream counts) is
// 72 netperf invocations, and the inter-region matrix C(20,2) = 190 pairs,
// each pinged both ways on internal addresses: 380 ping invocations.

export const FIXTURE_DIR = join(repoRoot, 'tests/fixtures/pkb');

export interface PlanJson {
  cells: number;
  trials: {
    tool: string;
    test: string;
    params: Record<string, unknown>;
    client: string;
    server: string;
    ip: string;
    cell: Record<string, unknown>;
    flows?: { client: string; server: string }[];
  }[];
  fleet: { id: string; name: string; cloud: string; config: Record<string, unknown> }[];
  warnings: string[];
}

export interface Expected {
  readonly trials: number;
  readonly cells: number;
  readonly fleet: number;
  /** tool:test client>server ip → count (host names, not fleet ids). */
  readonly shape: Readonly<Record<string, number>>;
  readonly check?: (plan: PlanJson) => void;
}

const internal = (key: string, n: number) => ({ [`${key}:internal`]: n });
/** The warning for a pair PKB's default INTERNAL would aim at an unreachable internal address. */
export const UNREACHABLE_RE =
  /cannot reach the internal address of .*PKB's default ip_addresses \(INTERNAL, since January 2024\) would fail there; netbench measures the external address/;
export const fleetConfig = (plan: PlanJson, name: string): Record<string, unknown>[] => plan.fleet.filter((h) => h.name === name).map((h) => ({ cloud: h.cloud, ...h.config }));
export const params = (plan: PlanJson, key: string) => [...new Set(plan.trials.map((t) => JSON.stringify(t.params[key])))].map((v) => JSON.parse(v) as unknown).sort();

export const FIXTURES: Readonly<Record<string, Expected>> = {
  // Whitepaper 2.1.2: 6 ordered zone pairs × (TCP_RR, TCP_STREAM, UDP_RR, UDP_STREAM) × streams (1, 4, 32), internal addresses: 72.
  'interzone_us_west1.yaml': {
    trials: 72,
    cells: 6,
    fleet: 6,
    shape: {
      ...internal('netperf:TCP_RR vm_1>vm_2', 18),
      ...internal('netperf:TCP_STREAM vm_1>vm_2', 18),
      ...internal('netperf:UDP_RR vm_1>vm_2', 18),
      ...internal('netperf:UDP_STREAM vm_1>vm_2', 18),
    },
    check: (plan) => {
      expect(plan.trials.every((t) => t.cell.zones !== t.cell.extra_zones)).toBe(true);
      expect(params(plan, 'streams')).toEqual([1, 32, 4]);
      expect(params(plan, 'duration')).toEqual([30]);
      expect(new Set(plan.trials.filter((t) => t.test === 'TCP_STREAM').map((t) => t.params.sendSize))).toEqual(new Set([131072]));
      expect(new Set(plan.trials.filter((t) => t.test === 'UDP_STREAM').map((t) => t.params.sendSize))).toEqual(new Set([1024]));
      expect(plan.fleet.every((h) => h.config.machineType === 'n1-standard-16')).toBe(true);
    },
  },
  // Whitepaper 4: C(20,2) = 190 region pairs × 2 directions, internal addresses (ping_also_run_using_external_ip is gone from PKB: warned).
  'inter_region_ping_matrix.yaml': {
    trials: 380,
    cells: 190,
    fleet: 38,
    shape: internal('ping:icmp vm_1>vm_2', 380),
    check: (plan) => {
      expect(plan.warnings.join('\n')).toMatch(
        /ping_also_run_using_external_ip  ignored: PKB removed this flag in favour of ip_addresses \(default INTERNAL\); to ping external addresses too, set ip_addresses: BOTH/,
      );
      expect(plan.trials.every((t) => String(t.cell.zones) < String(t.cell.extra_zones))).toBe(true);
      expect(params(plan, 'count')).toEqual([100]);
      expect(params(plan, 'interval')).toEqual([1]);
    },
  },
  'whitepaper-4-inter-region-as-printed.yaml': {
    trials: 380,
    cells: 190,
    fleet: 38,
    shape: internal('ping:icmp vm_1>vm_2', 380),
    check: (plan) => expect(plan.fleet.some((h) => h.config.zone === 'us-centrall1-a')).toBe(true),
  },
  // Whitepaper 3.3: AWS and GCP share no network: external (warned: PKB's default INTERNAL would fail); PKB's default tests TCP_RR, TCP_CRR, TCP_STREAM.
  'cross_cloud_aws_gcp.yaml': {
    trials: 3,
    cells: 1,
    fleet: 2,
    shape: { 'netperf:TCP_RR vm_1>vm_2:external': 1, 'netperf:TCP_CRR vm_1>vm_2:external': 1, 'netperf:TCP_STREAM vm_1>vm_2:external': 1 },
    check: (plan) => {
      expect(fleetConfig(plan, 'vm_1')[0]).toMatchObject({ cloud: 'aws', zone: 'us-east-1a', machineType: 'm4.4xlarge' });
      expect(fleetConfig(plan, 'vm_2')[0]).toMatchObject({ cloud: 'gcp', zone: 'us-central1-a', machineType: 'n1-standard-16' });
      expect(params(plan, 'duration')).toEqual([60]);
      expect(plan.warnings.join('\n')).toMatch(UNREACHABLE_RE);
    },
  },
  // Whitepaper 3.2: a local Docker container (a docker host, admitted by GCP at this machine's public address); external only, as PKB.
  'docker_to_gcp.yaml': {
    trials: 3,
    cells: 1,
    fleet: 2,
    shape: { 'netperf:TCP_RR vm_1>vm_2:external': 1, 'netperf:TCP_CRR vm_1>vm_2:external': 1, 'netperf:TCP_STREAM vm_1>vm_2:external': 1 },
    check: (plan) => {
      expect(fleetConfig(plan, 'vm_1')[0]).toMatchObject({ cloud: 'docker', publicAddress: 'auto' });
      expect(plan.warnings.join('\n')).toMatch(UNREACHABLE_RE);
    },
  },
  'onprem_static_to_gcp.yaml': {
    trials: 3,
    cells: 1,
    fleet: 2,
    shape: { 'netperf:TCP_RR vm_1>vm_2:external': 1, 'netperf:TCP_CRR vm_1>vm_2:external': 1, 'netperf:TCP_STREAM vm_1>vm_2:external': 1 },
    check: (plan) => expect(fleetConfig(plan, 'vm_1')[0]).toMatchObject({ cloud: 'static', address: '192.168.0.1', user: 'username', key: '/path/to/key', zone: 'local' }),
  },
  // As printed: static_vms as a mapping, read as a list of one (with a warning).
  'whitepaper-3.2-onprem-static-mapping.yaml': {
    trials: 3,
    cells: 1,
    fleet: 2,
    shape: { 'netperf:TCP_RR vm_1>vm_2:external': 1, 'netperf:TCP_CRR vm_1>vm_2:external': 1, 'netperf:TCP_STREAM vm_1>vm_2:external': 1 },
    check: (plan) => expect(plan.warnings.join('\n')).toMatch(/:7:7  netperf\.vm_groups\.vm_1\.static_vms  PKB expects static_vms to be a list/),
  },
  // Whitepaper 3.7 / 3.8: iperf each way, internal (one GCP VPC spans zones and regions).
  'interzone_iperf.yaml': { trials: 2, cells: 1, fleet: 2, shape: { ...internal('iperf:tcp vm_1>vm_2', 1), ...internal('iperf:tcp vm_2>vm_1', 1) } },
  'interregion_iperf.yaml': {
    trials: 2,
    cells: 1,
    fleet: 2,
    shape: { ...internal('iperf:tcp vm_1>vm_2', 1), ...internal('iperf:tcp vm_2>vm_1', 1) },
    check: (plan) => expect(plan.fleet.map((h) => h.config.zone)).toEqual(['us-central1-b', 'us-east4-c']),
  },
  // Whitepaper 3.9: AWS ↔ GCP iperf, external only; the GCP host gets the premium tier.
  'multi_tier.yaml': {
    trials: 2,
    cells: 1,
    fleet: 2,
    shape: { 'iperf:tcp vm_1>vm_2:external': 1, 'iperf:tcp vm_2>vm_1:external': 1 },
    check: (plan) => expect(fleetConfig(plan, 'vm_2')[0]?.networkTier).toBe('premium'),
  },
  'whitepaper-3.9-multi-tier-as-printed.yaml': {
    trials: 2,
    cells: 1,
    fleet: 2,
    shape: { 'iperf:tcp vm_1>vm_2:external': 1, 'iperf:tcp vm_2>vm_1:external': 1 },
    check: (plan) => {
      expect(fleetConfig(plan, 'vm_2')[0]?.networkTier).toBe('premium');
      expect(plan.warnings.join('\n')).toMatch(/read 'Gce_network_tier' as 'gce_network_tier'/);
    },
  },
  // Whitepaper 3.1.3 ("pending contribution"): UDP_RR from vm_1 to vm_2 and vm_3 at once (synchronized flows), burst searched 0..256.
  'netperf_aggregate_pps.yaml': {
    trials: 10,
    cells: 1,
    fleet: 3,
    shape: { 'netperf:UDP_RR vm_1>vm_2:internal': 10 },
    check: (plan) => {
      expect(params(plan, 'requestSize')).toEqual([1]);
      expect(plan.trials.map((t) => t.params.burst)).toEqual([0, 1, 2, 4, 8, 16, 32, 64, 128, 256]);
      for (const trial of plan.trials) expect(trial.flows?.map((f) => `${f.client}>${f.server}`)).toEqual(['vm_1>vm_2', 'vm_1>vm_3']);
      expect(plan.warnings).toEqual([]);
    },
  },
  // Whitepaper 3.4: ping over the VPN on internal addresses; each group its own VPC, joined by a Classic Cloud VPN (no warnings).
  'vpn_custom_cidr.yaml': {
    trials: 2,
    cells: 1,
    fleet: 2,
    shape: { 'ping:icmp vm_1>vm_2:internal': 2 },
    check: (plan) => {
      expect(plan.fleet.map((h) => h.config.cidr)).toEqual(['10.0.1.0/24', '192.168.1.0/24']);
      expect(plan.fleet.map((h) => h.config.vpcGroup)).toEqual(['vm-1', 'vm-2']);
      const vpn = { type: 'classic', routing: 'static', gateways: 1, tunnels: 2, ikeVersion: 2 };
      expect(plan.fleet.map((h) => h.config.vpn)).toEqual([vpn, vpn]);
      expect(plan.warnings).toEqual([]);
    },
  },
  // Whitepaper 3.4, first config: separate cidrs are separate networks in PKB: external only.
  'whitepaper-3.4-iperf-custom-cidr.yaml': { trials: 2, cells: 1, fleet: 2, shape: { 'iperf:tcp vm_1>vm_2:external': 1, 'iperf:tcp vm_2>vm_1:external': 1 } },
  // Whitepaper 3.5: one netperf TCP_STREAM, 100 s, container 1 → container 0: two docker containers sized like PKB's pods.
  'container_netperf.yaml': {
    trials: 1,
    cells: 1,
    fleet: 2,
    shape: { 'netperf:TCP_STREAM container_2>container_1:internal': 1 },
    check: (plan) => {
      expect(params(plan, 'duration')).toEqual([100]);
      expect(fleetConfig(plan, 'container_1')[0]).toMatchObject({ cloud: 'docker', cpus: 2, memory: '4096m' });
      expect(plan.warnings).toEqual([]);
    },
  },
  // Command lines of the whitepaper and the latency study, written as configs.
  'cli-2.1.1-ping-one-zone.yaml': {
    trials: 2,
    cells: 1,
    fleet: 2,
    shape: { 'ping:icmp vm_1>vm_2:internal': 2 },
    check: (plan) => expect(plan.fleet.map((h) => `${String(h.config.zone)} ${String(h.config.machineType)}`)).toEqual(['us-east1-b n1-standard-1', 'us-east1-b n1-standard-1']),
  },
  // Its ping_also_run_using_external_ip is gone from PKB: internal only, warned.
  'cli-3.1.1-ping-external.yaml': {
    trials: 2,
    cells: 1,
    fleet: 2,
    shape: internal('ping:icmp vm_1>vm_2', 2),
    check: (plan) => expect(plan.fleet.map((h) => h.config.zone)).toEqual(['us-central1-a', 'us-west1-b']),
  },
  'cli-3.1.1-netperf-tcp-rr.yaml': {
    trials: 1,
    cells: 1,
    fleet: 2,
    shape: internal('netperf:TCP_RR vm_1>vm_2', 1),
    check: (plan) => expect(params(plan, 'duration')).toEqual([60]),
  },
  'cli-3.1.2-iperf-threads.yaml': {
    trials: 2,
    cells: 1,
    fleet: 2,
    shape: { ...internal('iperf:tcp vm_1>vm_2', 1), ...internal('iperf:tcp vm_2>vm_1', 1) },
    check: (plan) => {
      expect(params(plan, 'streams')).toEqual([32]);
      expect(params(plan, 'duration')).toEqual([120]);
    },
  },
  'cli-3.1.2-netperf-streams.yaml': {
    trials: 2,
    cells: 1,
    fleet: 2,
    shape: { ...internal('netperf:TCP_STREAM vm_1>vm_2', 1), ...internal('netperf:UDP_STREAM vm_1>vm_2', 1) },
    check: (plan) => expect(params(plan, 'streams')).toEqual([4]),
  },
  'cli-3.6-intra-zone.yaml': {
    trials: 1,
    cells: 1,
    fleet: 2,
    shape: internal('netperf:TCP_RR vm_1>vm_2', 1),
    check: (plan) => expect(plan.fleet.every((h) => h.config.zone === 'us-central1-a' && h.config.machineType === 'n1-standard-4')).toBe(true),
  },
  'cli-3.7-inter-zone-iperf.yaml': { trials: 2, cells: 1, fleet: 2, shape: { ...internal('iperf:tcp vm_1>vm_2', 1), ...internal('iperf:tcp vm_2>vm_1', 1) } },
  'cli-3.8-inter-region-iperf.yaml': {
    trials: 2,
    cells: 1,
    fleet: 2,
    shape: { ...internal('iperf:tcp vm_1>vm_2', 1), ...internal('iperf:tcp vm_2>vm_1', 1) },
    check: (plan) => expect(plan.fleet.map((h) => h.config.zone)).toEqual(['us-central1-b', 'us-east4-c']),
  },
  'latency-intra-zone-placement.yaml': {
    trials: 1,
    cells: 1,
    fleet: 2,
    shape: internal('netperf:TCP_RR vm_1>vm_2', 1),
    check: (plan) => expect(plan.fleet.every((h) => h.config.placement === 'compact' && h.config.machineType === 'c2-standard-16')).toBe(true),
  },
  'latency-inter-region.yaml': { trials: 1, cells: 1, fleet: 2, shape: internal('netperf:TCP_RR vm_1>vm_2', 1) },
  'latency-simplest.yaml': {
    trials: 3,
    cells: 1,
    fleet: 4,
    shape: { 'ping:icmp ping_vm_1>ping_vm_2:internal': 2, ...internal('netperf:TCP_RR netperf_vm_1>netperf_vm_2', 1) },
  },
};

export function shapeOf(plan: PlanJson): Record<string, number> {
  const names = new Map(plan.fleet.map((h) => [h.id, h.name]));
  const out: Record<string, number> = {};
  for (const t of plan.trials) {
    const key = `${t.tool}:${t.test} ${names.get(t.client)}>${names.get(t.server)}:${t.ip}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/** Runs `fn` over `items`, `limit` at a time: each CLI start imports the cloud SDKs. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T);
      }
    }),
  );
  return out;
}
