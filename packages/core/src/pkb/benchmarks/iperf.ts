import { readInteger, readIntegerList, readNumber, readStringList } from '../flags.js';
import { ipTypes, targetIp } from '../ip-types.js';
import type { Path } from '../problems.js';
import { type BenchmarkContext, type BenchmarkTranslation, flagPath, type NativeBenchmark, type NativeOptions, needVms } from './context.js';

/** PKB's iperf defaults (linux_benchmarks/iperf_benchmark.py). */
export const PKB_IPERF_RUNTIME = 60;
/** iperf's own UDP target rate when PKB passes no `--bandwidth`. */
export const IPERF_DEFAULT_UDP_RATE = '1M';

type Protocol = 'tcp' | 'udp';

/**
 * PKB's `iperf` benchmark (iperf 2): two VMs; for every protocol × sending
 * thread count, each VM in turn sends to the other (`iperf --client`), on the
 * external address and, when reachable, the internal one. A netbench block
 * per direction and address type; protocols and thread counts are lists in
 * the block (one trial each).
 */
export function iperfBenchmarks(ctx: BenchmarkContext): BenchmarkTranslation {
  if (!needVms(ctx, 2, true)) return { benchmarks: [] };
  const [a, b] = ctx.vms as [BenchmarkContext['vms'][number], BenchmarkContext['vms'][number]];
  const params = iperfParams(ctx);
  if (!params) return { benchmarks: [] };
  const benchmarks: NativeBenchmark[] = [];
  for (const [sender, receiver] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const ip of ipTypes(ctx.reach, sender, receiver)) {
      for (const group of params.groups) {
        benchmarks.push({
          block: {
            tool: ctx.iperfTool,
            client: sender.host,
            server: receiver.host,
            ip: targetIp(receiver, ip),
            protocol: group.fields.protocol,
            ...params.common,
            ...group.fields,
          },
          origins: { ...params.origins, ...group.origins, ip: flagPath(ctx, 'ip_addresses') },
          note: `PKB iperf: ${sender.host} sends to ${receiver.host}, ${ip} address (ip_addresses ${ctx.reach.mode})`,
        });
      }
    }
  }
  return { benchmarks, ...(params.options ? { options: params.options } : {}) };
}

interface IperfParams {
  readonly common: Record<string, unknown>;
  readonly origins: Record<string, Path>;
  readonly groups: { fields: Record<string, unknown>; origins: Record<string, Path> }[];
  readonly options?: NativeOptions;
}

function iperfParams(ctx: BenchmarkContext): IperfParams | undefined {
  const { flags, problems } = ctx;
  const common: Record<string, unknown> = {};
  const origins: Record<string, Path> = {};
  let ok = true;

  const runtime = flags.get('iperf_runtime_in_seconds');
  const duration = runtime ? readInteger(runtime, problems) : { ok: true as const, value: PKB_IPERF_RUNTIME };
  if (duration.ok) common.duration = duration.value;
  else ok = false;
  origins.duration = flagPath(ctx, 'iperf_runtime_in_seconds');

  const threads = flags.get('iperf_sending_thread_count');
  if (threads) {
    const read = readIntegerList(threads, problems);
    if (read.ok) common.streams = read.value.length === 1 ? read.value[0] : read.value;
    else ok = false;
    origins.streams = threads.path;
  }

  const protocols = readProtocols(ctx);
  if (!protocols) ok = false;

  let options: NativeOptions | undefined;
  const timeout = flags.get('iperf_timeout');
  if (timeout) {
    // PKB waits this long beyond the runtime before killing iperf: netbench's trialTimeout.
    const read = readInteger(timeout, problems);
    if (read.ok && typeof read.value === 'number') options = { trialTimeout: read.value };
    else if (read.ok) problems.error(timeout.path, 'iperf_timeout cannot be a matrix axis');
  }
  if (!ok || !protocols) return undefined;

  const rate = (protocol: Protocol): { value?: unknown; path?: Path } => {
    const name = `iperf_${protocol}_per_stream_bandwidth`;
    const flag = flags.get(name);
    if (!flag) return protocol === 'udp' ? { value: IPERF_DEFAULT_UDP_RATE } : {};
    const read = readNumber(flag, problems);
    // PKB passes `--bandwidth NM` (Mbit/s per stream); a matrix value is interpolated the same way.
    return read.ok ? { value: `${String(read.value)}M`, path: flag.path } : {};
  };
  if (protocols.includes('udp') && !flags.has('iperf_udp_per_stream_bandwidth')) {
    problems.warn(
      flagPath(ctx, 'iperf_benchmarks'),
      `UDP without iperf_udp_per_stream_bandwidth sends at iperf's default of 1 Mbit/s per stream, as PKB does; set it (Mbit/s) to measure more`,
    );
  }
  // Protocols with the same target rate share a block.
  const byRate = new Map<string, { protocols: Protocol[]; value?: unknown; path?: Path }>();
  for (const protocol of protocols) {
    const r = rate(protocol);
    const key = JSON.stringify(r.value ?? null);
    const entry = byRate.get(key) ?? { protocols: [], ...r };
    entry.protocols.push(protocol);
    byRate.set(key, entry);
  }
  const protocolsPath = flagPath(ctx, 'iperf_benchmarks');
  const groups = [...byRate.values()].map((entry) => ({
    fields: { protocol: entry.protocols.length === 1 ? entry.protocols[0] : entry.protocols, ...(entry.value !== undefined ? { bitrate: entry.value } : {}) },
    origins: { protocol: protocolsPath, ...(entry.path ? { bitrate: entry.path } : {}) },
  }));
  return { common, origins, groups, ...(options ? { options } : {}) };
}

function readProtocols(ctx: BenchmarkContext): Protocol[] | undefined {
  const flag = ctx.flags.get('iperf_benchmarks');
  if (!flag) return ['tcp'];
  if (flag.kind === 'axis') {
    ctx.problems.error(flag.path, 'iperf_benchmarks cannot be a matrix axis in netbench; list the protocols in flags (iperf_benchmarks: TCP,UDP), which runs each');
    return undefined;
  }
  const read = readStringList(flag, ctx.problems);
  if (!read.ok) return undefined;
  const protocols: Protocol[] = [];
  for (const value of read.value) {
    const protocol = value.toLowerCase();
    if (protocol !== 'tcp' && protocol !== 'udp') {
      ctx.problems.error(flag.path, `iperf_benchmarks: '${value}' is not TCP or UDP`);
      return undefined;
    }
    if (!protocols.includes(protocol)) protocols.push(protocol);
  }
  return protocols;
}
