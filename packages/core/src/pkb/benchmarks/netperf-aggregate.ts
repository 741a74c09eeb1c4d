import { readInteger } from '../flags.js';
import { type IpType, ipTypes } from '../ip-types.js';
import { type BenchmarkContext, type BenchmarkTranslation, flagPath, needVms } from './context.js';
import { PKB_NETPERF_TEST_LENGTH } from './netperf.js';

/** netperf's find_max_burst.sh doubles the burst until the rate stops rising; PKB's script stops at 256. */
const PKB_BURST_MAX = 256;

/**
 * PKB's `netperf_aggregate` (whitepaper 3.1.3): packets per second, with
 * `vms[0]` running netperf's runemomniaggdemo.sh — UDP_RR with 1-byte
 * messages to netservers on every other VM at once, the burst searched
 * upwards until the aggregate transaction rate stops rising. Here: one
 * synchronized trial of flows from the first VM to every other VM
 * (`flows: one-to-many`), started at one barrier, per burst step
 * (`burstSearch`); the aggregate transaction and packet rates are the
 * trial's `flow: aggregate` samples.
 */
export function netperfAggregateBenchmarks(ctx: BenchmarkContext): BenchmarkTranslation {
  if (!needVms(ctx, 3, false)) return { benchmarks: [] };
  const [client, ...servers] = ctx.vms;
  if (!client || servers.length < 2) return { benchmarks: [] };
  const length = ctx.flags.get('netperf_test_length');
  const duration = length ? readInteger(length, ctx.problems) : { ok: true as const, value: PKB_NETPERF_TEST_LENGTH };
  if (!duration.ok) return { benchmarks: [] };
  // The demo measures inside the cloud network; external addresses only when asked for.
  const types: IpType[] = ipTypes(ctx.reach, client, servers[0]!);
  const benchmarks = types.map((ip) => ({
    block: {
      tool: 'netperf',
      flows: { topology: 'one-to-many', client: client.host, servers: servers.map((server) => server.host) },
      ip,
      tests: ['UDP_RR'],
      duration: duration.value,
      requestSize: 1,
      responseSize: 1,
      burstSearch: { max: PKB_BURST_MAX, minGainPercent: 5 },
    },
    origins: { duration: flagPath(ctx, 'netperf_test_length'), ip: flagPath(ctx, 'ip_addresses') },
    note: `PKB netperf_aggregate: ${client.host} → ${servers.map((s) => s.host).join(', ')} at once, ${ip} address, UDP_RR with 1-byte messages, burst searched up to ${PKB_BURST_MAX}`,
  }));
  return { benchmarks };
}
