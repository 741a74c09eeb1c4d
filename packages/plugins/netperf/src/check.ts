import { ToolMissingError } from '@netbench/plugin-api';
import type { Host, PluginContext, ToolInfo } from '@netbench/plugin-api';
import { readBannerFeatures, readVersionProbe } from './build-features.js';
import { NetserverPool } from './netserver-pool.js';
import { testFromBanner } from './tests.js';

const PROBE_TIMEOUT_MS = 15_000;

/**
 * Find netperf and netserver on a host and what their build supports:
 * `intervals`/`burst` from `netperf -w 1ms -b 1 -V` (which complains about
 * options not compiled in before printing the version), `histogram`/`demo`
 * from the banner of a one-transaction TCP_RR against a netserver on the
 * host's own loopback. `histogram` is 'unknown' when that self-test fails.
 */
export async function checkNetperf(host: Host, ctx: PluginContext): Promise<ToolInfo> {
  const { signal } = ctx;
  const probe = await run(host, ['netperf', '-w', '1ms', '-b', '1', '-V'], signal);
  const build = readVersionProbe(probe.output);
  if (probe.code !== 0 || !build.version) throw new ToolMissingError('netperf', host.name, probe.output.trim() || undefined);
  const server = await run(host, ['netserver', '-V'], signal);
  if (server.code !== 0 || !/version/i.test(server.output)) {
    throw new ToolMissingError('netperf', host.name, `netserver is missing: ${server.output.trim()}`);
  }
  const banner = await loopbackBanner(host, ctx);
  const fromBanner = banner ? readBannerFeatures(banner) : undefined;
  return {
    version: build.version,
    command: 'netperf',
    features: {
      intervals: build.intervals,
      burst: build.burst,
      histogram: fromBanner ? fromBanner.histogram : 'unknown',
      demo: fromBanner ? fromBanner.demo : 'unknown',
      spin: fromBanner ? fromBanner.spin : 'unknown',
    },
  };
}

async function run(host: Host, argv: string[], signal: AbortSignal): Promise<{ code: number | null; output: string }> {
  try {
    const result = await host.exec(argv, { timeoutMs: PROBE_TIMEOUT_MS, signal });
    return { code: result.code, output: result.stdout + result.stderr };
  } catch (error) {
    signal.throwIfAborted();
    return { code: null, output: error instanceof Error ? error.message : String(error) };
  }
}

// A netserver on 127.0.0.1 at a random high port pair, one transaction, stop.
async function loopbackBanner(host: Host, ctx: PluginContext): Promise<string | undefined> {
  const base = 40000 + 2 * Math.floor(Math.random() * 5000);
  const pool = new NetserverPool(host, { basePort: base, family: ['-L', '127.0.0.1'], log: ctx.log });
  try {
    const lease = await pool.acquire(1, ctx.signal);
    const [ports] = lease.ports;
    if (!ports) return undefined;
    const argv = ['netperf', '-H', '127.0.0.1', '-p', String(ports.control), '-t', 'TCP_RR', '-l', '-1', '--', '-P', `,${ports.data}`, '-o', 'THROUGHPUT'];
    const result = await run(host, argv, ctx.signal);
    const banner = result.output.split('\n').find((line) => testFromBanner(line) !== undefined);
    if (!banner) ctx.log.debug(`netperf self-test on ${host.name} printed no banner: ${result.output.trim()}`);
    return banner;
  } catch (error) {
    ctx.signal.throwIfAborted();
    ctx.log.debug(`netperf self-test on ${host.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  } finally {
    await pool.stop();
  }
}
