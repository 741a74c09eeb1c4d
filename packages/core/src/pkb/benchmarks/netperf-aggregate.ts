import { readInteger } from '../flags.js';
import { ipTypes, reachable, type IpType } from '../ip-types.js';
import { flagPath, needVms, type BenchmarkContext, type BenchmarkTranslation } from './context.js';
import { PKB_NETPERF_TEST_LENGTH } from './netperf.js';

/**
 * PKB's `netperf_aggregate` (whitepaper 3.1.3, "a pending contribution"):
 * packets per second, with `vms[0]` running netperf's aggregate UDP_RR demo
 * against netservers on `vms[1]` and `vms[2]` at once. netbench has no
 * one-to-many trial, so it runs one small-message UDP_RR trial to each
 * server, both at the same time (`options.concurrency: 2`), and the
 * transaction rates add up to the aggregate. The demo's search for the best
 * burst size is not reproduced (see docs/pkb.md).
 */
export function netperfAggregateBenchmarks(ctx: BenchmarkContext): BenchmarkTranslation {
  if (!needVms(ctx, 3, false)) return { benchmarks: [] };
  const [client, ...rest] = ctx.vms;
  const servers = rest.slice(0, 2);
  if (!client || servers.length < 2) return { benchmarks: [] };
  ctx.problems.warn(ctx.base, 'netperf_aggregate is approximated: netperf UDP_RR (1-byte messages) from the first VM to the two others at the same time (options.concurrency: 2); add the two transaction rates for the aggregate. The burst-size search of netperf\'s runemomniaggdemo.sh is not reproduced');
  const length = ctx.flags.get('netperf_test_length');
  const duration = length ? readInteger(length, ctx.problems) : { ok: true as const, value: PKB_NETPERF_TEST_LENGTH };
  if (!duration.ok) return { benchmarks: [] };
  // The demo measures inside the cloud network; external addresses only when asked for.
  const types: IpType[] = ctx.reach.explicit ? ipTypes(ctx.reach, client, servers[0]!) : reachable(ctx.reach, client, servers[0]!) ? ['internal'] : ['external'];
  const benchmarks = types.flatMap((ip) =>
    servers.map((server) => ({
      block: { tool: 'netperf', client: client.host, server: server.host, ip, tests: ['UDP_RR'], duration: duration.value, requestSize: 1, responseSize: 1 },
      origins: { duration: flagPath(ctx, 'netperf_test_length'), ip: flagPath(ctx, 'ip_addresses') },
      note: `PKB netperf_aggregate: ${client.host} → ${server.host}, ${ip} address, UDP_RR with 1-byte messages, at the same time as the other server`,
    })),
  );
  return { benchmarks, options: { concurrency: 2 } };
}
