import { type FlagValue, readInteger, readIntegerList, readStringList } from '../flags.js';
import { ipTypes, targetIp } from '../ip-types.js';
import type { Path } from '../problems.js';
import { type BenchmarkContext, type BenchmarkTranslation, flagPath, type NativeBenchmark, needVms } from './context.js';

/** PKB's netperf defaults (linux_benchmarks/netperf_benchmark.py). */
export const PKB_NETPERF_TESTS = ['TCP_RR', 'TCP_CRR', 'TCP_STREAM'];
export const PKB_NETPERF_TEST_LENGTH = 60;
export const PKB_TCP_STREAM_SEND_SIZE = 131072;
export const PKB_UDP_STREAM_SEND_SIZE = 1024;

const IGNORED: Readonly<Record<string, string>> = {
  netperf_histogram_buckets: 'ignored: netbench keeps latency percentiles from netperf itself and needs no bucket count',
  netperf_enable_histograms: 'ignored: netbench always records the latency percentiles netperf reports',
  netperf_mss: 'netbench has no netperf MSS setting yet; ignored (iperf3 has mss)',
  netperf_thinktime: 'netbench has no netperf think time; ignored',
  netperf_thinktime_array_size: 'netbench has no netperf think time; ignored',
  netperf_thinktime_run_length: 'netbench has no netperf think time; ignored',
};

/**
 * PKB's `netperf` benchmark: `vms[0]` runs netperf against netserver on
 * `vms[1]`, once per stream count × test × address type (external, then
 * internal when reachable). TCP_STREAM sends 128 KiB writes and UDP_STREAM
 * 1 KiB ones (PKB's `-m` defaults), so each gets its own netbench block.
 */
export function netperfBenchmarks(ctx: BenchmarkContext): BenchmarkTranslation {
  if (!needVms(ctx, 2, false)) return { benchmarks: [] };
  if (ctx.vms.length > 2)
    ctx.problems.warn([...ctx.base, 'vm_groups'], `PKB's netperf uses the first two VMs (${ctx.vms[0]?.host} → ${ctx.vms[1]?.host}); the others are not used`);
  for (const [flag, message] of Object.entries(IGNORED)) {
    const value = ctx.flags.get(flag);
    if (value && !(value.kind === 'value' && (value.value === 0 || (flag === 'netperf_enable_histograms' && value.value === true)))) ctx.problems.warn(value.path, message);
  }
  const [client, server] = ctx.vms as [BenchmarkContext['vms'][number], BenchmarkContext['vms'][number]];
  const params = netperfParams(ctx);
  if (!params) return { benchmarks: [] };

  const benchmarks: NativeBenchmark[] = [];
  for (const ip of ipTypes(ctx.reach, client, server)) {
    for (const group of params.groups) {
      benchmarks.push({
        block: { tool: 'netperf', client: client.host, server: server.host, ip: targetIp(server, ip), tests: group.fields.tests, ...params.common, ...group.fields },
        origins: { ...params.origins, ...group.origins, ip: flagPath(ctx, 'ip_addresses') },
        note: `PKB netperf: ${client.host} → netserver on ${server.host}, ${ip} address (ip_addresses ${ctx.reach.mode})`,
      });
    }
  }
  return { benchmarks };
}

interface TestGroup {
  readonly fields: Record<string, unknown>;
  readonly origins: Record<string, Path>;
}

interface NetperfParams {
  readonly common: Record<string, unknown>;
  readonly origins: Record<string, Path>;
  readonly groups: TestGroup[];
}

function netperfParams(ctx: BenchmarkContext): NetperfParams | undefined {
  const { flags, problems } = ctx;
  const common: Record<string, unknown> = {};
  const origins: Record<string, Path> = {};
  let ok = true;

  const testsFlag = flags.get('netperf_benchmarks');
  const tests = testsFlag ? readStringList(testsFlag, problems) : { ok: true as const, value: PKB_NETPERF_TESTS };
  if (!tests.ok) ok = false;

  const length = flags.get('netperf_test_length');
  const duration = length ? readInteger(length, problems) : { ok: true as const, value: PKB_NETPERF_TEST_LENGTH };
  if (duration.ok) common.duration = duration.value;
  else ok = false;
  origins.duration = flagPath(ctx, 'netperf_test_length');

  const streamsFlag = flags.get('netperf_num_streams');
  if (streamsFlag) {
    const streams = readIntegerList(streamsFlag, problems);
    if (streams.ok) common.streams = streams.value.length === 1 ? streams.value[0] : streams.value;
    else ok = false;
    origins.streams = streamsFlag.path;
  }

  const maxIter = flags.get('netperf_max_iter');
  if (maxIter) {
    // PKB: `-I 99,5 -i MAX,3`: 99 % confidence that the result is within ±2.5 %.
    const max = readInteger(maxIter, problems);
    if (max.ok) common.confidence = { level: 99, width: 5, min: 3, max: max.value };
    else ok = false;
    origins.confidence = maxIter.path;
  }
  if (!ok || !tests.ok) return undefined;
  return { common, origins, groups: testGroups(ctx, tests.value, testsFlag) };
}

/** Split the tests so each stream test gets PKB's send size for it. */
function testGroups(ctx: BenchmarkContext, tests: readonly string[], testsFlag: FlagValue | undefined): TestGroup[] {
  const testsPath = flagPath(ctx, 'netperf_benchmarks');
  // PKB ignores a send size for a test the config does not run; so does netbench, silently.
  ctx.flags.markUsed('netperf_tcp_stream_send_size_in_bytes');
  ctx.flags.markUsed('netperf_udp_stream_send_size_in_bytes');
  const upper = [...new Set(tests.map((t) => (t.startsWith('${') ? t : t.toUpperCase())))];
  const size = (name: 'netperf_tcp_stream_send_size_in_bytes' | 'netperf_udp_stream_send_size_in_bytes', fallback: number): { value: unknown; path: Path } => {
    const flag = ctx.flags.get(name);
    if (!flag) return { value: fallback, path: testsPath };
    const read = readInteger(flag, ctx.problems);
    return { value: read.ok ? read.value : fallback, path: flag.path };
  };
  if (testsFlag?.kind === 'axis') {
    // One test per cell: the send size follows the stream test the axis holds.
    const values = testsFlag.values.map((v) => String(v).toUpperCase());
    const tcp = values.includes('TCP_STREAM');
    const udp = values.includes('UDP_STREAM');
    if (tcp && udp) ctx.problems.warn(testsFlag.path, 'with TCP_STREAM and UDP_STREAM on one matrix axis, both use the TCP_STREAM send size (PKB uses 1024 bytes for UDP_STREAM)');
    const send = tcp
      ? size('netperf_tcp_stream_send_size_in_bytes', PKB_TCP_STREAM_SEND_SIZE)
      : udp
        ? size('netperf_udp_stream_send_size_in_bytes', PKB_UDP_STREAM_SEND_SIZE)
        : undefined;
    return [{ fields: { tests: upper, ...(send ? { sendSize: send.value } : {}) }, origins: { tests: testsPath, ...(send ? { sendSize: send.path } : {}) } }];
  }
  const groups: TestGroup[] = [];
  const others = upper.filter((t) => t !== 'UDP_STREAM');
  if (others.length > 0) {
    const send = others.includes('TCP_STREAM') ? size('netperf_tcp_stream_send_size_in_bytes', PKB_TCP_STREAM_SEND_SIZE) : undefined;
    groups.push({ fields: { tests: others, ...(send ? { sendSize: send.value } : {}) }, origins: { tests: testsPath, ...(send ? { sendSize: send.path } : {}) } });
  }
  if (upper.includes('UDP_STREAM')) {
    const send = size('netperf_udp_stream_send_size_in_bytes', PKB_UDP_STREAM_SEND_SIZE);
    groups.push({ fields: { tests: ['UDP_STREAM'], sendSize: send.value }, origins: { tests: testsPath, sendSize: send.path } });
  }
  return groups;
}
