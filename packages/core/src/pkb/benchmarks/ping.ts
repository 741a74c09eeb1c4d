import { readBoolean } from '../flags.js';
import { hasSingleAddress, type IpType, ipTypes, targetIp } from '../ip-types.js';
import { type BenchmarkContext, type BenchmarkTranslation, flagPath, needVms } from './context.js';

/** PKB runs `ping -c 100 <ip>` (one request a second) from each VM to the other. */
export const PKB_PING_COUNT = 100;
export const PKB_PING_INTERVAL = 1;

/**
 * PKB's `ping` benchmark: two VMs, each pings the other, on the addresses
 * `ip_addresses` selects, as every PKB network benchmark (default INTERNAL).
 * The whitepaper-era `ping_also_run_using_external_ip` was removed from PKB
 * in favour of `ip_addresses`: a config that still sets it gets a warning
 * saying what to write. One netbench ping block per address type; its
 * `direction: both` (the default) pings both ways.
 */
export function pingBenchmarks(ctx: BenchmarkContext): BenchmarkTranslation {
  if (!needVms(ctx, 2, true)) return { benchmarks: [] };
  const [a, b] = ctx.vms as [BenchmarkContext['vms'][number], BenchmarkContext['vms'][number]];
  const alsoExternalFlag = ctx.flags.get('ping_also_run_using_external_ip');
  if (alsoExternalFlag) {
    const alsoExternal = readBoolean(alsoExternalFlag, ctx.problems);
    const instead = alsoExternal.ok && alsoExternal.value ? 'to ping external addresses too, set ip_addresses: BOTH' : 'remove it';
    ctx.problems.warn(alsoExternalFlag.path, `ignored: PKB removed this flag in favour of ip_addresses (${ctx.reach.explicit ? '' : 'default '}${ctx.reach.mode}); ${instead}`);
  }
  const types: IpType[] = ipTypes(ctx.reach, a, b);
  const why = () => `ip_addresses ${ctx.reach.mode}${ctx.reach.explicit ? '' : ", PKB's default"}`;
  const origins = (ip: IpType) => ({ ip: ip === 'external' || ctx.reach.explicit ? flagPath(ctx, 'ip_addresses') : ctx.base });
  const settings = { count: PKB_PING_COUNT, interval: PKB_PING_INTERVAL };
  const tail = `ping -c ${PKB_PING_COUNT}, one request a second`;
  // A static VM with one address is reached as `internal`, so each direction gets its own block.
  if (hasSingleAddress(a) || hasSingleAddress(b)) {
    const benchmarks = types.flatMap((ip) =>
      (
        [
          [a, b],
          [b, a],
        ] as const
      ).map(([from, to]) => ({
        block: { tool: 'ping', client: from.host, server: to.host, ip: targetIp(to, ip), direction: 'forward', ...settings },
        origins: origins(ip),
        note: `PKB ping: ${from.host} pings ${to.host}, ${ip} address (${why()}); ${tail}`,
      })),
    );
    return { benchmarks };
  }
  const benchmarks = types.map((ip) => ({
    block: { tool: 'ping', client: a.host, server: b.host, ip, ...settings },
    origins: origins(ip),
    note: `PKB ping: ${a.host} <-> ${b.host}, ${ip} address (${why()}), both directions; ${tail}`,
  }));
  return { benchmarks };
}
