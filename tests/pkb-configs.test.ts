import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createPlan, createRegistry, loadSpec, type Plan } from '@netbench/core';
import { repoRoot, runCli, tempHome, type CliResult } from './helpers/cli.js';
import { onlyRunDir, readResults } from './helpers/results.js';
import { dockerObjectsOf, dockerReady } from './helpers/docker.js';

// PerfKit Benchmarker configs from the reference documents (tests/fixtures/pkb:
// pkb-configs/*.yaml verbatim, the whitepaper's own printings where they differ,
// and its command lines written as configs) plan, through the built CLI, to the
// trials PKB runs. How PKB counts, from its benchmark code:
//  - netperf: vms[0] → vms[1], once per num_streams × test × address;
//  - iperf: each VM sends to the other, per protocol × thread count × address;
//  - ping: each VM pings the other (`ping -c 100`); internal addresses, plus
//    external ones with ping_also_run_using_external_ip;
//  - addresses (--ip_addresses, default REACHABLE): external always, internal
//    too when the VMs share a network (GCP: one VPC per run, unless the groups
//    ask for separate cidrs; never across clouds or to a static machine).
// So "72 runs" of the whitepaper's fmatrix (6 zone pairs × 4 tests × 3 stream
// counts) is per address type: 144 netperf invocations. The inter-region
// matrix is C(20,2) = 190 pairs, each pinged both ways on both addresses: 760.

interface PlanJson {
  cells: number;
  trials: { tool: string; test: string; params: Record<string, unknown>; client: string; server: string; ip: string; cell: Record<string, unknown>; flows?: { client: string; server: string }[] }[];
  fleet: { id: string; name: string; cloud: string; config: Record<string, unknown> }[];
  warnings: string[];
}

interface Expected {
  readonly trials: number;
  readonly cells: number;
  readonly fleet: number;
  /** tool:test client>server ip → count (host names, not fleet ids). */
  readonly shape: Readonly<Record<string, number>>;
  readonly check?: (plan: PlanJson) => void;
}

const both = (key: string, n: number) => ({ [`${key}:external`]: n, [`${key}:internal`]: n });
const fleetConfig = (plan: PlanJson, name: string): Record<string, unknown>[] => plan.fleet.filter((h) => h.name === name).map((h) => ({ cloud: h.cloud, ...h.config }));
const params = (plan: PlanJson, key: string) => [...new Set(plan.trials.map((t) => JSON.stringify(t.params[key])))].map((v) => JSON.parse(v) as unknown).sort();

const FIXTURES: Readonly<Record<string, Expected>> = {
  // Whitepaper 2.1.2: 6 ordered zone pairs × (TCP_RR, TCP_STREAM, UDP_RR, UDP_STREAM) × streams (1, 4, 32) × 2 addresses.
  'interzone_us_west1.yaml': {
    trials: 144, cells: 6, fleet: 6,
    shape: { ...both('netperf:TCP_RR vm_1>vm_2', 18), ...both('netperf:TCP_STREAM vm_1>vm_2', 18), ...both('netperf:UDP_RR vm_1>vm_2', 18), ...both('netperf:UDP_STREAM vm_1>vm_2', 18) },
    check: (plan) => {
      expect(plan.trials.every((t) => t.cell.zones !== t.cell.extra_zones)).toBe(true);
      expect(params(plan, 'streams')).toEqual([1, 32, 4]);
      expect(params(plan, 'duration')).toEqual([30]);
      expect(new Set(plan.trials.filter((t) => t.test === 'TCP_STREAM').map((t) => t.params.sendSize))).toEqual(new Set([131072]));
      expect(new Set(plan.trials.filter((t) => t.test === 'UDP_STREAM').map((t) => t.params.sendSize))).toEqual(new Set([1024]));
      expect(plan.fleet.every((h) => h.config.machineType === 'n1-standard-16')).toBe(true);
    },
  },
  // Whitepaper 4: C(20,2) region pairs × 2 directions × (internal + external).
  'inter_region_ping_matrix.yaml': {
    trials: 760, cells: 190, fleet: 38,
    shape: both('ping:icmp vm_1>vm_2', 380),
    check: (plan) => {
      expect(plan.trials.every((t) => String(t.cell.zones) < String(t.cell.extra_zones))).toBe(true);
      expect(params(plan, 'count')).toEqual([100]);
      expect(params(plan, 'interval')).toEqual([1]);
    },
  },
  'whitepaper-4-inter-region-as-printed.yaml': {
    trials: 760, cells: 190, fleet: 38,
    shape: both('ping:icmp vm_1>vm_2', 380),
    check: (plan) => expect(plan.fleet.some((h) => h.config.zone === 'us-centrall1-a')).toBe(true),
  },
  // Whitepaper 3.3: AWS and GCP share no network: external only; PKB's default tests TCP_RR, TCP_CRR, TCP_STREAM.
  'cross_cloud_aws_gcp.yaml': {
    trials: 3, cells: 1, fleet: 2,
    shape: { 'netperf:TCP_RR vm_1>vm_2:external': 1, 'netperf:TCP_CRR vm_1>vm_2:external': 1, 'netperf:TCP_STREAM vm_1>vm_2:external': 1 },
    check: (plan) => {
      expect(fleetConfig(plan, 'vm_1')[0]).toMatchObject({ cloud: 'aws', zone: 'us-east-1a', machineType: 'm4.4xlarge' });
      expect(fleetConfig(plan, 'vm_2')[0]).toMatchObject({ cloud: 'gcp', zone: 'us-central1-a', machineType: 'n1-standard-16' });
      expect(params(plan, 'duration')).toEqual([60]);
    },
  },
  // Whitepaper 3.2: a local Docker container (a docker host, admitted by GCP at this machine's public address); external only, as PKB.
  'docker_to_gcp.yaml': {
    trials: 3, cells: 1, fleet: 2,
    shape: { 'netperf:TCP_RR vm_1>vm_2:external': 1, 'netperf:TCP_CRR vm_1>vm_2:external': 1, 'netperf:TCP_STREAM vm_1>vm_2:external': 1 },
    check: (plan) => {
      expect(fleetConfig(plan, 'vm_1')[0]).toMatchObject({ cloud: 'docker', publicAddress: 'auto' });
      expect(plan.warnings).toEqual([]);
    },
  },
  'onprem_static_to_gcp.yaml': {
    trials: 3, cells: 1, fleet: 2,
    shape: { 'netperf:TCP_RR vm_1>vm_2:external': 1, 'netperf:TCP_CRR vm_1>vm_2:external': 1, 'netperf:TCP_STREAM vm_1>vm_2:external': 1 },
    check: (plan) => expect(fleetConfig(plan, 'vm_1')[0]).toMatchObject({ cloud: 'static', address: '192.168.0.1', user: 'username', key: '/path/to/key', zone: 'local' }),
  },
  // As printed: static_vms as a mapping, read as a list of one (with a warning).
  'whitepaper-3.2-onprem-static-mapping.yaml': {
    trials: 3, cells: 1, fleet: 2,
    shape: { 'netperf:TCP_RR vm_1>vm_2:external': 1, 'netperf:TCP_CRR vm_1>vm_2:external': 1, 'netperf:TCP_STREAM vm_1>vm_2:external': 1 },
    check: (plan) => expect(plan.warnings.join('\n')).toMatch(/:7:7  netperf\.vm_groups\.vm_1\.static_vms  PKB expects static_vms to be a list/),
  },
  // Whitepaper 3.7 / 3.8: iperf each way, external and internal (one GCP VPC spans zones and regions).
  'interzone_iperf.yaml': { trials: 4, cells: 1, fleet: 2, shape: { ...both('iperf:tcp vm_1>vm_2', 1), ...both('iperf:tcp vm_2>vm_1', 1) } },
  'interregion_iperf.yaml': {
    trials: 4, cells: 1, fleet: 2,
    shape: { ...both('iperf:tcp vm_1>vm_2', 1), ...both('iperf:tcp vm_2>vm_1', 1) },
    check: (plan) => expect(plan.fleet.map((h) => h.config.zone)).toEqual(['us-central1-b', 'us-east4-c']),
  },
  // Whitepaper 3.9: AWS ↔ GCP iperf, external only; the GCP host gets the premium tier.
  'multi_tier.yaml': {
    trials: 2, cells: 1, fleet: 2,
    shape: { 'iperf:tcp vm_1>vm_2:external': 1, 'iperf:tcp vm_2>vm_1:external': 1 },
    check: (plan) => expect(fleetConfig(plan, 'vm_2')[0]?.networkTier).toBe('premium'),
  },
  'whitepaper-3.9-multi-tier-as-printed.yaml': {
    trials: 2, cells: 1, fleet: 2,
    shape: { 'iperf:tcp vm_1>vm_2:external': 1, 'iperf:tcp vm_2>vm_1:external': 1 },
    check: (plan) => {
      expect(fleetConfig(plan, 'vm_2')[0]?.networkTier).toBe('premium');
      expect(plan.warnings.join('\n')).toMatch(/read 'Gce_network_tier' as 'gce_network_tier'/);
    },
  },
  // Whitepaper 3.1.3 ("pending contribution"): UDP_RR from vm_1 to vm_2 and vm_3 at once (synchronized flows), burst searched 0..256.
  'netperf_aggregate_pps.yaml': {
    trials: 10, cells: 1, fleet: 3,
    shape: { 'netperf:UDP_RR vm_1>vm_2:internal': 10 },
    check: (plan) => {
      expect(params(plan, 'requestSize')).toEqual([1]);
      expect(plan.trials.map((t) => t.params.burst)).toEqual([0, 1, 2, 4, 8, 16, 32, 64, 128, 256]);
      for (const trial of plan.trials) expect(trial.flows?.map((f) => `${f.client}>${f.server}`)).toEqual(['vm_1>vm_2', 'vm_1>vm_3']);
      expect(plan.warnings).toEqual([]);
    },
  },
  // Whitepaper 3.4: ping over the VPN on internal addresses, both ways; the VPN itself is not built (warning).
  'vpn_custom_cidr.yaml': {
    trials: 2, cells: 1, fleet: 2,
    shape: { 'ping:icmp vm_1>vm_2:internal': 2 },
    check: (plan) => {
      expect(plan.fleet.map((h) => h.config.cidr)).toEqual(['10.0.1.0/24', '192.168.1.0/24']);
      expect(plan.warnings.join('\n')).toMatch(/netbench builds no IPsec VPN/);
    },
  },
  // Whitepaper 3.4, first config: separate cidrs are separate networks in PKB: external only.
  'whitepaper-3.4-iperf-custom-cidr.yaml': { trials: 2, cells: 1, fleet: 2, shape: { 'iperf:tcp vm_1>vm_2:external': 1, 'iperf:tcp vm_2>vm_1:external': 1 } },
  // Whitepaper 3.5: one netperf TCP_STREAM, 100 s, container 1 → container 0: two docker containers sized like PKB's pods.
  'container_netperf.yaml': {
    trials: 1, cells: 1, fleet: 2,
    shape: { 'netperf:TCP_STREAM container_2>container_1:internal': 1 },
    check: (plan) => {
      expect(params(plan, 'duration')).toEqual([100]);
      expect(fleetConfig(plan, 'container_1')[0]).toMatchObject({ cloud: 'docker', cpus: 2, memory: '4096m' });
      expect(plan.warnings).toEqual([]);
    },
  },
  // Command lines of the whitepaper and the latency study, written as configs.
  'cli-2.1.1-ping-one-zone.yaml': {
    trials: 2, cells: 1, fleet: 2,
    shape: { 'ping:icmp vm_1>vm_2:internal': 2 },
    check: (plan) => expect(plan.fleet.map((h) => `${String(h.config.zone)} ${String(h.config.machineType)}`)).toEqual(['us-east1-b n1-standard-1', 'us-east1-b n1-standard-1']),
  },
  'cli-3.1.1-ping-external.yaml': {
    trials: 4, cells: 1, fleet: 2,
    shape: both('ping:icmp vm_1>vm_2', 2),
    check: (plan) => expect(plan.fleet.map((h) => h.config.zone)).toEqual(['us-central1-a', 'us-west1-b']),
  },
  'cli-3.1.1-netperf-tcp-rr.yaml': { trials: 2, cells: 1, fleet: 2, shape: both('netperf:TCP_RR vm_1>vm_2', 1), check: (plan) => expect(params(plan, 'duration')).toEqual([60]) },
  'cli-3.1.2-iperf-threads.yaml': {
    trials: 4, cells: 1, fleet: 2,
    shape: { ...both('iperf:tcp vm_1>vm_2', 1), ...both('iperf:tcp vm_2>vm_1', 1) },
    check: (plan) => {
      expect(params(plan, 'streams')).toEqual([32]);
      expect(params(plan, 'duration')).toEqual([120]);
    },
  },
  'cli-3.1.2-netperf-streams.yaml': {
    trials: 4, cells: 1, fleet: 2,
    shape: { ...both('netperf:TCP_STREAM vm_1>vm_2', 1), ...both('netperf:UDP_STREAM vm_1>vm_2', 1) },
    check: (plan) => expect(params(plan, 'streams')).toEqual([4]),
  },
  'cli-3.6-intra-zone.yaml': {
    trials: 2, cells: 1, fleet: 2,
    shape: both('netperf:TCP_RR vm_1>vm_2', 1),
    check: (plan) => expect(plan.fleet.every((h) => h.config.zone === 'us-central1-a' && h.config.machineType === 'n1-standard-4')).toBe(true),
  },
  'cli-3.7-inter-zone-iperf.yaml': { trials: 4, cells: 1, fleet: 2, shape: { ...both('iperf:tcp vm_1>vm_2', 1), ...both('iperf:tcp vm_2>vm_1', 1) } },
  'cli-3.8-inter-region-iperf.yaml': {
    trials: 4, cells: 1, fleet: 2,
    shape: { ...both('iperf:tcp vm_1>vm_2', 1), ...both('iperf:tcp vm_2>vm_1', 1) },
    check: (plan) => expect(plan.fleet.map((h) => h.config.zone)).toEqual(['us-central1-b', 'us-east4-c']),
  },
  'latency-intra-zone-placement.yaml': {
    trials: 2, cells: 1, fleet: 2,
    shape: both('netperf:TCP_RR vm_1>vm_2', 1),
    check: (plan) => expect(plan.fleet.every((h) => h.config.placement === 'compact' && h.config.machineType === 'c2-standard-16')).toBe(true),
  },
  'latency-inter-region.yaml': { trials: 2, cells: 1, fleet: 2, shape: both('netperf:TCP_RR vm_1>vm_2', 1) },
  'latency-simplest.yaml': {
    trials: 4, cells: 1, fleet: 4,
    shape: { 'ping:icmp ping_vm_1>ping_vm_2:internal': 2, ...both('netperf:TCP_RR netperf_vm_1>netperf_vm_2', 1) },
  },
};

const FIXTURE_DIR = join(repoRoot, 'tests/fixtures/pkb');

function shapeOf(plan: PlanJson): Record<string, number> {
  const names = new Map(plan.fleet.map((h) => [h.id, h.name]));
  const out: Record<string, number> = {};
  for (const t of plan.trials) {
    const key = `${t.tool}:${t.test} ${names.get(t.client)}>${names.get(t.server)}:${t.ip}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/** Runs `fn` over `items`, `limit` at a time: each CLI start imports the cloud SDKs. */
async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  }));
  return out;
}

const planned = new Map<string, { result: CliResult; plan?: PlanJson }>();

beforeAll(async () => {
  const files = Object.keys(FIXTURES);
  const results = await pool(files, 3, (file) => runCli(['plan', join(FIXTURE_DIR, file), '--json']));
  files.forEach((file, i) => {
    const result = results[i] as CliResult;
    let plan: PlanJson | undefined;
    try {
      plan = JSON.parse(result.stdout) as PlanJson;
    } catch {
      plan = undefined;
    }
    planned.set(file, { result, ...(plan ? { plan } : {}) });
  });
}, 900_000);

describe('PKB configs from the reference documents plan to the trials PerfKit runs (netbench plan --json)', () => {
  test('every fixture has its expected plan written down here', () => {
    const files = readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.yaml')).sort();
    expect(files).toEqual(Object.keys(FIXTURES).sort());
    // Every config of pkb-configs/ is among them.
    for (const name of ['container_netperf', 'cross_cloud_aws_gcp', 'docker_to_gcp', 'inter_region_ping_matrix', 'interregion_iperf', 'interzone_iperf', 'interzone_us_west1', 'multi_tier', 'netperf_aggregate_pps', 'onprem_static_to_gcp', 'vpn_custom_cidr']) {
      expect(files).toContain(`${name}.yaml`);
    }
  });

  test.each(Object.entries(FIXTURES))('%s', (file, expected) => {
    const { result, plan } = planned.get(file)!;
    expect(result.code, result.stderr + result.stdout.slice(0, 2000)).toBe(0);
    expect(plan).toBeDefined();
    expect(plan!.trials).toHaveLength(expected.trials);
    expect(plan!.cells).toBe(expected.cells);
    expect(plan!.fleet).toHaveLength(expected.fleet);
    expect(shapeOf(plan!)).toEqual(expected.shape);
    expected.check?.(plan!);
  });
});

describe('netbench convert', () => {
  const registry = createRegistry({ searchDirs: [join(repoRoot, 'packages/cli')], userPlugins: false });
  const strip = (plan: Plan) => ({
    trials: plan.trials.map(({ tool, test, params, client, server, ip, cell }) => ({ tool, test, params, client, server, ip, cell })),
    fleet: plan.fleet,
    cells: plan.cells,
  });

  test.each(Object.keys(FIXTURES))('%s: the native spec plans exactly as the PKB config', async (file) => {
    const { spec } = await loadSpec({ file: join(FIXTURE_DIR, file) }, registry);
    const native = spec.source?.text ?? '';
    expect(native).toMatch(/^# netbench spec translated from the PerfKit Benchmarker config/);
    const again = await loadSpec({ text: native, file: 'converted.yaml' }, registry);
    expect(strip(await createPlan(again.spec, registry))).toEqual(strip(await createPlan(spec, registry)));
  });

  test('--out writes the native spec, which the CLI plans to the same trials', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nbt-pkb-convert-'));
    const out = join(dir, 'interzone.yaml');
    const converted = await runCli(['convert', join(FIXTURE_DIR, 'interzone_us_west1.yaml'), '--out', out]);
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stdout).toBe(`wrote ${out}\n`);
    expect(converted.stderr).toMatch(/interzone_us_west1\.yaml:13:5  netperf\.flags\.netperf_histogram_buckets  ignored/);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/filter: zones != extra_zones/);
    expect(text).toMatch(/zone: "\$\{extra_zones\}"/);
    const replanned = await runCli(['plan', out, '--json']);
    expect(replanned.code, replanned.stderr).toBe(0);
    const original = planned.get('interzone_us_west1.yaml')!.plan!;
    const again = JSON.parse(replanned.stdout) as PlanJson;
    const key = (p: PlanJson) => p.trials.map(({ tool, test, params, client, server, ip, cell }) => JSON.stringify({ tool, test, params, client, server, ip, cell }));
    expect(key(again)).toEqual(key(original));
    expect(again.fleet).toEqual(original.fleet);
  });

  test('prints YAML by default and the document with --json', async () => {
    const yaml = await runCli(['convert', join(FIXTURE_DIR, 'multi_tier.yaml')]);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stdout).toMatch(/^ {2}vm_2: \{ cloud: gcp, machineType: n1-standard-16, zone: us-central1-a, networkTier: premium \}$/m);
    expect(yaml.stdout).toMatch(/# PKB iperf: vm_2 sends to vm_1, external address/);
    const json = await runCli(['convert', join(FIXTURE_DIR, 'multi_tier.yaml'), '--json']);
    const body = JSON.parse(json.stdout) as { spec: { benchmarks: { client: string; server: string; ip: string }[] }; warnings: string[] };
    expect(body.spec.benchmarks.map((b) => `${b.client}>${b.server}:${b.ip}`)).toEqual(['vm_1>vm_2:external', 'vm_2>vm_1:external']);
  });

  test('a netbench spec is not converted', async () => {
    const result = await runCli(['convert', 'examples/quickstart.yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not a PerfKit Benchmarker config.*already a netbench spec/);
  });
});

describe('broken PKB configs are refused at their own lines (exit 2)', () => {
  const cases: Record<string, RegExp[]> = {
    'bad-filter.yaml': [/bad-filter\.yaml:4:14  netperf\.flag_matrix_filters\.fmatrix  cannot translate this filter to CEL at character 1: function '__import__' is not supported/],
    'undefined-matrix.yaml': [/undefined-matrix\.yaml:2:16  netperf\.flag_matrix  'fmatrx' is not defined in flag_matrix_defs \(defined: fmatrix\)/],
    'unsupported.yaml': [/unsupported\.yaml:1:1  fio  PKB benchmark 'fio' is not one netbench translates/, /unsupported\.yaml:7:14  ping\.vm_groups\.vm_1\.cloud  cloud 'Rackspace' has no netbench plugin/],
    // Plugins' objections to translated fields, placed at the flag that set them.
    'bad-machine-type.yaml': [/bad-machine-type\.yaml:3:19  iperf\.flags\.machine_type  .*\(netbench hosts\.vm_1\.machineType\)/, /bad-machine-type\.yaml:4:33  iperf\.flags\.iperf_sending_thread_count  .*\(netbench benchmarks\.0\.streams\)/],
  };
  test.each(Object.entries(cases))('%s', async (file, messages) => {
    const result = await runCli(['validate', join(FIXTURE_DIR, 'broken', file)]);
    expect(result.code, result.stdout).toBe(2);
    for (const message of messages) expect(result.stderr).toMatch(message);
    // The Python filter was refused, never evaluated.
    if (file === 'bad-filter.yaml') expect(existsSync('/tmp/pwned')).toBe(false);
  });
});

describe.runIf((await dockerReady()).ready)('netbench run reads a PKB config', () => {
  test('PKB Docker VMs run as docker containers: real netperf, no warning, the native spec kept in the run folder, nothing left behind', async () => {
    const home = tempHome('nbt-pkb-run-');
    const runsDir = join(home, 'runs');
    const result = await runCli(['run', join(repoRoot, 'tests/fixtures/pkb-local/netperf-between-containers.yaml'), '--runs-dir', runsDir, '--progress', 'plain'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stderr).not.toMatch(/netperf-between-containers\.yaml:\d+:\d+ /);
    const runDir = onlyRunDir(runsDir);
    const { run, samples } = readResults(runDir);
    expect(run.trials.map((t) => `${t.test}:${t.status}`)).toEqual(['TCP_RR:succeeded', 'TCP_STREAM:succeeded']);
    expect(run.hosts.map((h) => h.cloud)).toEqual(['docker', 'docker']);
    expect(samples.find((s) => s.metric === 'TCP_STREAM_Throughput')?.value).toBeGreaterThan(10);
    expect(readFileSync(join(runDir, 'spec.yaml'), 'utf8')).toMatch(/^# netbench spec translated from the PerfKit Benchmarker config netperf-between-containers\.yaml/);
    expect(await dockerObjectsOf(run.runId)).toEqual([]);
  });
});

describe('scenario examples (examples/*.yaml) validate and plan', () => {
  const registry = createRegistry({ searchDirs: [join(repoRoot, 'packages/cli')], userPlugins: false });
  // trials, cells, fleet hosts: the counts each example's header comment explains.
  const EXAMPLES: Readonly<Record<string, [number, number, number]>> = {
    'whitepaper-cross-cloud.yaml': [5, 1, 2],
    'whitepaper-network-tiers.yaml': [8, 2, 3],
    'whitepaper-onprem-to-cloud.yaml': [5, 1, 2],
    'whitepaper-iperf-zones-regions.yaml': [8, 2, 3],
    'whitepaper-custom-cidr.yaml': [4, 1, 2],
    'whitepaper-packets-per-second.yaml': [10, 1, 3],
    'pps-aggregate.yaml': [2, 1, 4],
    'mesh.yaml': [2, 1, 4],
    'bidirectional.yaml': [1, 1, 3],
    'whitepaper-intra-zone.yaml': [7, 1, 2],
    'whitepaper-inter-zone.yaml': [72, 6, 6],
    'whitepaper-inter-region.yaml': [380, 190, 38],
    'container-netperf.yaml': [8, 1, 2],
    'kubernetes-netperf.yaml': [42, 1, 6],
    'docker-containers.yaml': [5, 1, 3],
    'latency-cluster-and-inter-region.yaml': [2, 1, 3],
    'latency-ping-vs-netperf.yaml': [3, 1, 2],
    'linux-network-evaluation.yaml': [6, 1, 2],
    'http-sweeps.yaml': [70, 1, 2],
    'http-zone-to-zone.yaml': [78, 6, 6],
    'gcp-interzone-quick-test.yaml': [20, 4, 5],
    'quickstart.yaml': [5, 1, 2],
    'shaped-link.yaml': [1, 1, 2],
    'long-study.yaml': [6, 2, 3],
  };

  test('every example is listed', () => {
    expect(readdirSync(join(repoRoot, 'examples')).filter((f) => f.endsWith('.yaml')).sort()).toEqual(Object.keys(EXAMPLES).sort());
  });

  test.each(Object.entries(EXAMPLES))('%s', async (file, [trials, cells, fleet]) => {
    const { spec } = await loadSpec({ file: join(repoRoot, 'examples', file) }, registry);
    const plan = await createPlan(spec, registry);
    expect([plan.trials.length, plan.cells, plan.fleet.length]).toEqual([trials, cells, fleet]);
    expect(spec.description ?? '').not.toBe('');
  });

  test('the packets-per-second example is one trial of flows to both servers per burst step', async () => {
    const { spec } = await loadSpec({ file: join(repoRoot, 'examples/whitepaper-packets-per-second.yaml') }, registry);
    const plan = await createPlan(spec, registry);
    expect(plan.trials.map((t) => t.params.burst)).toEqual([0, 1, 2, 4, 8, 16, 32, 64, 128, 256]);
    expect(plan.trials.every((t) => t.search?.metric === 'UDP_RR_Transaction_Rate')).toBe(true);
    expect(plan.trials.map((t) => t.flows?.map((f) => f.server).join(','))).toEqual(Array(10).fill('server_1,server_2'));
  });
});
