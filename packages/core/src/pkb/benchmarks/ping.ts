import { readBoolean } from '../flags.js';
import { hasSingleAddress, ipTypes, reachable, targetIp, type IpType } from '../ip-types.js';
import { flagPath, needVms, type BenchmarkContext, type BenchmarkTranslation } from './context.js';

/** PKB runs `ping -c 100 <ip>` (one request a second) from each VM to the other. */
export const PKB_PING_COUNT = 100;
export const PKB_PING_INTERVAL = 1;

/**
 * PKB's `ping` benchmark: two VMs, each pings the other. Which addresses:
 * with `ip_addresses` set, as every PKB network benchmark (external, and
 * internal when reachable); otherwise as the whitepaper-era benchmark did,
 * internal addresses, plus external ones with
 * `ping_also_run_using_external_ip: True`. One netbench ping block per
 * address type; its `direction: both` (the default) pings both ways.
 */
export function pingBenchmarks(ctx: BenchmarkContext): BenchmarkTranslation {
  if (!needVms(ctx, 2, true)) return { benchmarks: [] };
  const [a, b] = ctx.vms as [BenchmarkContext['vms'][number], BenchmarkContext['vms'][number]];
  const alsoExternalFlag = ctx.flags.get('ping_also_run_using_external_ip');
  const alsoExternal = alsoExternalFlag ? readBoolean(alsoExternalFlag, ctx.problems) : undefined;
  let types: IpType[];
  let why: (ip: IpType) => string;
  if (ctx.reach.explicit) {
    types = ipTypes(ctx.reach, a, b);
    why = () => `ip_addresses ${ctx.reach.mode}`;
    if (alsoExternalFlag) ctx.problems.warn(alsoExternalFlag.path, 'ignored: ip_addresses is set, and newer PKB replaced this flag with it');
  } else {
    const internal = reachable(ctx.reach, a, b);
    types = [...(internal ? (['internal'] as const) : []), ...(alsoExternal?.ok && alsoExternal.value ? (['external'] as const) : [])];
    why = (ip) => (ip === 'internal' ? "PKB ping's default" : 'ping_also_run_using_external_ip');
    if (types.length === 0) {
      ctx.problems.warn(ctx.base, `${a.host} and ${b.host} cannot reach each other's internal addresses, so PKB's ping would measure nothing; netbench pings the external addresses`);
      types = ['external'];
      why = () => 'internal addresses are not reachable';
    }
  }
  const origins = (ip: IpType) => ({ ip: ip === 'external' ? flagPath(ctx, ctx.reach.explicit ? 'ip_addresses' : 'ping_also_run_using_external_ip') : ctx.base });
  const settings = { count: PKB_PING_COUNT, interval: PKB_PING_INTERVAL };
  const tail = `ping -c ${PKB_PING_COUNT}, one request a second`;
  // A static VM with one address is reached as `internal`, so each direction gets its own block.
  if (hasSingleAddress(a) || hasSingleAddress(b)) {
    const benchmarks = types.flatMap((ip) =>
      ([[a, b], [b, a]] as const).map(([from, to]) => ({
        block: { tool: 'ping', client: from.host, server: to.host, ip: targetIp(to, ip), direction: 'forward', ...settings },
        origins: origins(ip),
        note: `PKB ping: ${from.host} pings ${to.host}, ${ip} address (${why(ip)}); ${tail}`,
      })),
    );
    return { benchmarks };
  }
  const benchmarks = types.map((ip) => ({
    block: { tool: 'ping', client: a.host, server: b.host, ip, ...settings },
    origins: origins(ip),
    note: `PKB ping: ${a.host} <-> ${b.host}, ${ip} address (${why(ip)}), both directions; ${tail}`,
  }));
  return { benchmarks };
}
