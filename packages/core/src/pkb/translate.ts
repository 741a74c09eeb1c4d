import { NAME_RE } from '../issues/names.js';
import { isPlainObject } from '../matrix/placeholders.js';
import { clusterGroups, containerNetperfBenchmarks } from './benchmarks/container-netperf.js';
import type { BenchmarkContext, BenchmarkTranslation, NativeBenchmark, NativeOptions } from './benchmarks/context.js';
import { iperfBenchmarks } from './benchmarks/iperf.js';
import { netperfBenchmarks } from './benchmarks/netperf.js';
import { netperfAggregateBenchmarks } from './benchmarks/netperf-aggregate.js';
import { pingBenchmarks } from './benchmarks/ping.js';
import { isBenchmarkConfig, isSupportedBenchmark, SUPPORTED_BENCHMARKS, type SupportedBenchmark } from './detect.js';
import { CONFIG_KEYS, FLAG_NOTES } from './flag-notes.js';
import { PkbFlags, readInteger } from './flags.js';
import { readReachability } from './ip-types.js';
import { type NativeMatrix, nativeMatrix, readMatrix } from './matrix.js';
import { Origins, type Path, Problems } from './problems.js';
import { type PkbVm, readVms, type VmSource } from './vms.js';
import { applyVpn } from './vpn.js';

export interface TranslateOptions {
  /** Spec name; default `pkb-<benchmark>`. The loader passes the file's base name. */
  readonly name?: string;
  /** Tool for PKB's `iperf` (iperf 2): `iperf` when that plugin is installed, else `iperf3` (default). */
  readonly iperfTool?: 'iperf' | 'iperf3';
}

export interface PkbTranslation {
  /** The native spec document, before validation. */
  readonly document: Record<string, unknown>;
  /** One line per `benchmarks[]` entry: what PKB step it reproduces (for the converted file's comments). */
  readonly notes: readonly string[];
  /** PKB benchmarks translated, in file order. */
  readonly benchmarks: readonly string[];
  readonly problems: Problems;
  readonly origins: Origins;
}

/** Native keys a PKB file may carry beside its benchmark configs (`--set options.concurrency=2` works). */
const PASSTHROUGH_KEYS = new Set(['name', 'options', 'publish']);
const NATIVE_ONLY_KEYS = new Set(['hosts', 'benchmarks', 'matrix']);

const TRANSLATORS: Readonly<Record<SupportedBenchmark, { readonly defaultGroups: number; readonly translate: (ctx: BenchmarkContext) => BenchmarkTranslation }>> = {
  ping: { defaultGroups: 2, translate: pingBenchmarks },
  netperf: { defaultGroups: 2, translate: netperfBenchmarks },
  iperf: { defaultGroups: 2, translate: iperfBenchmarks },
  netperf_aggregate: { defaultGroups: 3, translate: netperfAggregateBenchmarks },
  container_netperf: { defaultGroups: 0, translate: containerNetperfBenchmarks },
};

/**
 * Translate a parsed PKB benchmark config file into a native spec document:
 * VMs become `hosts`, the benchmark's runs become `benchmarks` blocks that
 * plan to the same tool invocations PKB makes, and `flag_matrix` becomes
 * `matrix` (filters in CEL). Pure: no I/O, nothing evaluated. Problems are
 * on PKB paths; `origins` maps native paths back to them.
 */
export function translatePkb(raw: Readonly<Record<string, unknown>>, options: TranslateOptions = {}): PkbTranslation {
  const problems = new Problems();
  const origins = new Origins();
  const passthrough: Record<string, unknown> = {};
  const configs: { key: string; benchmark: SupportedBenchmark; config: Record<string, unknown> }[] = [];

  for (const [key, value] of Object.entries(raw)) {
    if (PASSTHROUGH_KEYS.has(key)) {
      passthrough[key] = value;
      origins.set([key], [key]);
    } else if (NATIVE_ONLY_KEYS.has(key)) {
      problems.error([key], `'${key}' belongs to a netbench spec, not a PKB config; run \`netbench convert\` and edit the native spec instead`, 'key');
    } else if (isBenchmarkConfig(key, value) || isSupportedBenchmark(key)) {
      const config = isPlainObject(value) ? value : {};
      const benchmark = typeof config.name === 'string' ? config.name : key;
      if (isSupportedBenchmark(benchmark)) configs.push({ key, benchmark, config });
      else
        problems.error(
          [key],
          `PKB benchmark '${benchmark}' is not one netbench translates (it translates ${SUPPORTED_BENCHMARKS.join(', ')}); for other network tools write a netbench spec`,
          'key',
        );
    } else {
      problems.warn([key], `top-level key '${key}' is not a benchmark config; ignored`);
    }
  }
  if (configs.length === 0 && problems.issues.length === 0)
    problems.error([], `no benchmark config found; a PKB config starts with the benchmark's name (${SUPPORTED_BENCHMARKS.join(', ')})`);
  const matrixConfigs = configs.filter(({ config }) => config.flag_matrix !== undefined || config.flag_zip !== undefined);
  if (configs.length > 1 && matrixConfigs.length > 0) {
    problems.error(
      [matrixConfigs[0]!.key],
      'a netbench spec has one matrix for all its benchmarks: convert a config with a flag_matrix on its own (one benchmark per file)',
      'key',
    );
  }

  const hosts: Record<string, Record<string, unknown>> = {};
  const benchmarks: NativeBenchmark[] = [];
  const notes: string[] = [];
  const nativeOptions: NativeOptions = {};
  let matrix: NativeMatrix | undefined;
  const descriptions: string[] = [];
  const prefix = (key: string) => (configs.length > 1 ? `${key.replace(/[^A-Za-z0-9_-]/g, '_')}_` : '');

  for (const { key, benchmark, config } of configs) {
    const base: Path = [key];
    for (const name of Object.keys(config)) {
      if (name === 'vpn_service' || name === 'vpn_service_gateway_count')
        continue; // read with use_vpn below
      else if (!CONFIG_KEYS.has(name)) problems.warn([...base, name], `benchmark config key '${name}' is not used by netbench; ignored`);
    }
    if (typeof config.description === 'string') descriptions.push(config.description);
    const pkbMatrix = readMatrix(config, base, problems);
    const flags = new PkbFlags(config.flags, [...base, 'flags'], pkbMatrix.axes, problems);
    const source: VmSource =
      benchmark === 'container_netperf'
        ? { groups: clusterGroups(config), groupsPath: [...base, 'container_cluster'], groupPath: () => [...base, 'container_cluster'], defaultGroups: 0, prefix: prefix(key) }
        : { groups: config.vm_groups, groupsPath: [...base, 'vm_groups'], defaultGroups: TRANSLATORS[benchmark].defaultGroups, prefix: prefix(key) };
    if (benchmark === 'container_netperf' && !isPlainObject(config.container_cluster))
      problems.error(base, 'container_netperf needs container_cluster (vm_count and vm_spec of the nodes)');
    const vms = readVms(source, flags, problems);
    allowStaticSources(vms);
    const reach = readReachability(flags, problems);
    if (reach.vpn && !applyVpn(config, base, vms, problems)) {
      problems.warn(
        flags.pathOf('use_vpn'),
        "use_vpn: netbench builds a Cloud VPN between two GCP VM groups only; here internal addresses are measured directly between the hosts' networks, not through a tunnel",
      );
    }
    for (const name of ['vpn_service', 'vpn_service_gateway_count']) {
      if (!reach.vpn && config[name] !== undefined) problems.warn([...base, name], `${name} ignored: use_vpn is not set`);
    }
    const result = TRANSLATORS[benchmark].translate({ benchmark, base, config, flags, vms, reach, problems, iperfTool: options.iperfTool ?? 'iperf3' });

    for (const vm of vms) addHost(hosts, vm, origins);
    for (const bench of result.benchmarks) {
      const index = benchmarks.length;
      benchmarks.push(bench);
      notes.push(bench.note);
      origins.set(['benchmarks', index], base);
      for (const [field, path] of Object.entries(bench.origins)) origins.set(['benchmarks', index, field], path);
    }
    Object.assign(nativeOptions, mergeOptions(nativeOptions, result.options));
    for (const option of Object.keys(result.options ?? {})) origins.set(['options', option], base);
    installOption(vms, nativeOptions, origins, problems);
    const copies = flags.get('num_benchmark_copies');
    if (copies) {
      const read = readInteger(copies, problems);
      if (read.ok && typeof read.value === 'number') {
        nativeOptions.repetitions = read.value;
        origins.set(['options', 'repetitions'], copies.path);
      }
    }
    matrix = nativeMatrix(pkbMatrix, flags, base, problems, origins) ?? matrix;
    for (const { name, path } of flags.unused()) {
      const note = pkbMatrix.axes.has(name)
        ? 'varies in the matrix, but netbench does not use it: its cells repeat the same trials'
        : (FLAG_NOTES[name] ?? 'is not used by the netbench translation; ignored');
      problems.warn(path, `flag '${name}' ${note}`);
    }
    for (const pair of reach.unreachable)
      problems.warn(
        base,
        `${pair.replace('/', ' cannot reach the internal address of ')}: PKB's default ip_addresses (INTERNAL, since January 2024) would fail there; netbench measures the external address — set ip_addresses: EXTERNAL (or BOTH) to say so`,
      );
    for (const pair of reach.assumed)
      problems.warn(
        base,
        `internal addresses of ${pair.replace('/', ' and ')} assumed reachable in every cell (PKB tests this at run time; VMs in different AWS or Azure regions cannot reach each other's internal addresses)`,
      );
  }

  const names = configs.map((c) => c.benchmark);
  const document: Record<string, unknown> = {
    name: specName(options.name, names),
    description: descriptions.length > 0 ? descriptions.join('; ') : `PerfKit Benchmarker ${names.join(', ') || 'config'}, translated by netbench`,
    hosts,
    benchmarks: benchmarks.map((b) => b.block),
    ...(matrix ? { matrix } : {}),
    ...(passthrough.publish !== undefined ? { publish: passthrough.publish } : {}),
  };
  // Options written in the file win over those the translation implies.
  const written = passthrough.options;
  if (written !== undefined && !isPlainObject(written)) document.options = written;
  else if (Object.keys(nativeOptions).length > 0 || written !== undefined) document.options = { ...nativeOptions, ...(isPlainObject(written) ? written : {}) };
  if (passthrough.name !== undefined) document.name = passthrough.name;
  return { document, notes, benchmarks: names, problems, origins };
}

function addHost(hosts: Record<string, Record<string, unknown>>, vm: PkbVm, origins: Origins): void {
  hosts[vm.host] = { cloud: vm.cloud, ...vm.fields };
  origins.set(['hosts', vm.host], vm.path);
  for (const [field, path] of vm.origins) origins.set(['hosts', vm.host, field], path);
}

/**
 * A static (on-premises) machine with a public address reaches the run's GCP
 * and Azure hosts from that address: let it through their firewalls, as PKB
 * opens the benchmark's ports to it.
 */
function allowStaticSources(vms: PkbVm[]): void {
  const sources = vms
    .filter((vm) => vm.cloud === 'static' && typeof vm.fields.address === 'string' && isPublicIpv4(vm.fields.address))
    .map((vm) => `${String(vm.fields.address)}/32`);
  if (sources.length === 0) return;
  for (const vm of vms) if (vm.cloud === 'gcp' || vm.cloud === 'azure') vm.fields.allowFrom = sources;
}

function isPublicIpv4(address: string): boolean {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false;
  const [a, b] = parts as [number, number];
  return !(a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127));
}

/**
 * PKB's `install_packages: false` (on a static VM or in a vm_spec) is
 * netbench's `options.install: false`. netbench decides it per run, so when
 * only some VMs say so, no host gets tools installed, and the user is told.
 */
function installOption(vms: readonly PkbVm[], options: NativeOptions, origins: Origins, problems: Problems): void {
  const off = vms.filter((vm) => vm.install?.value === false);
  if (off.length === 0) return;
  options.install = false;
  origins.set(['options', 'install'], off[0]!.install!.path);
  const others = vms.filter((vm) => vm.install?.value !== false).map((vm) => vm.host);
  if (others.length > 0) {
    problems.warn(off[0]!.install!.path, `install_packages: false is one setting per run in netbench (options.install): tools are not installed on ${others.join(', ')} either`);
  }
}

function mergeOptions(current: NativeOptions, add: NativeOptions | undefined): NativeOptions {
  if (!add) return current;
  return {
    ...current,
    ...(add.concurrency !== undefined ? { concurrency: Math.max(current.concurrency ?? 1, add.concurrency) } : {}),
    ...(add.trialTimeout !== undefined ? { trialTimeout: Math.max(current.trialTimeout ?? 0, add.trialTimeout) } : {}),
  };
}

function specName(given: string | undefined, benchmarks: readonly string[]): string {
  const cleaned = (given ?? '').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  if (cleaned !== '' && NAME_RE.test(cleaned)) return cleaned;
  return `pkb-${benchmarks[0] ?? 'config'}`.replace(/[^A-Za-z0-9_-]/g, '-');
}
