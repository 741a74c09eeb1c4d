import type { Host, PluginContext, ToolInfo } from '@netbench/plugin-api';
import { ToolMissingError } from '@netbench/plugin-api';
import { readBannerFeatures, readVersionProbe } from './build-features.js';
import { checkScript, readCheckOutput } from './check-script.js';
import { testFromBanner } from './tests.js';

const PROBE_TIMEOUT_MS = 15_000;

/**
 * Find netperf and netserver on a host and what their build supports:
 * `intervals`/`burst` from `netperf -w 1ms -b 1 -V` (which complains about
 * options not compiled in before printing the version), `histogram`/`demo`
 * from the banner of a one-transaction TCP_RR against a netserver on the
 * host's own loopback. `histogram` is 'unknown' when that self-test fails.
 * All of it is one command on the host (one round trip over SSH).
 */
export async function checkNetperf(host: Host, ctx: PluginContext): Promise<ToolInfo> {
  const { signal } = ctx;
  const base = 40000 + 2 * Math.floor(Math.random() * 5000);
  let text: string;
  try {
    const result = await host.exec(checkScript(base), { timeoutMs: PROBE_TIMEOUT_MS, signal });
    text = `${result.stdout}${result.stderr}`;
  } catch (error) {
    signal.throwIfAborted();
    text = error instanceof Error ? error.message : String(error);
  }
  const sections = readCheckOutput(text);
  const probe = sections.probe;
  const build = readVersionProbe(probe?.output ?? '');
  if (probe?.code !== 0 || !build.version) throw new ToolMissingError('netperf', host.name, (probe?.output ?? text).trim() || undefined);
  const server = sections.netserver;
  if (server?.code !== 0 || !/version/i.test(server.output)) {
    throw new ToolMissingError('netperf', host.name, `netserver is missing: ${(server?.output ?? '').trim()}`);
  }
  const selfTest = sections.selftest?.output ?? '';
  const banner = selfTest.split('\n').find((line) => testFromBanner(line) !== undefined);
  if (!banner) ctx.log.debug(`netperf self-test on ${host.name} printed no banner: ${selfTest.trim()}`);
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
