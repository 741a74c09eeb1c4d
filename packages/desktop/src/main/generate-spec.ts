import { stringify } from 'yaml';
import type { WizardAnswers, WizardNetperfTest, WizardSite } from '../shared/bridge-types.js';

/** netperf tests that answer each question, when the wizard was not told which. */
export const DEFAULT_NETPERF_TESTS: Readonly<Record<WizardAnswers['question'], readonly WizardNetperfTest[]>> = {
  latency: ['TCP_RR'], throughput: ['TCP_STREAM'], pps: ['UDP_RR'], onprem: ['TCP_RR', 'TCP_STREAM'],
};
/** Repetitions of every trial unless told otherwise: enough for compare to decide, in random order. */
export const DEFAULT_REPETITIONS = 3;

/**
 * The spec the wizard's answers describe: one host per site and every chosen
 * tool between each pair of sites (first site as client), with the chosen
 * direction, streams, protocol and netperf tests; every trial repeated
 * (default 3) in random order. Three or more cloud sites of one cloud and
 * machine type become the spec's `matrix` over zones (one host template per
 * role, `zone_a < zone_b`: each pair once) instead of every pair written out.
 * Shaping goes on every local host's egress (`link`), so both directions are
 * shaped. Returned as YAML text for the editor, where anything can change.
 */
export function generateSpec(answers: WizardAnswers): string {
  const matrix = zoneMatrix(answers.sites);
  const hosts: Record<string, unknown> = {};
  const benchmarks: Record<string, unknown>[] = [];
  if (matrix) {
    hosts['a'] = { cloud: matrix.cloud, zone: '${zone_a}', machineType: matrix.machineType };
    hosts['b'] = { cloud: matrix.cloud, zone: '${zone_b}', machineType: matrix.machineType };
    for (const tool of answers.tools) benchmarks.push(...toolBlocks(tool, answers).map((block) => ({ tool, client: 'a', server: 'b', ...block })));
  } else {
    const names = siteNames(answers.sites);
    answers.sites.forEach((site, i) => { hosts[names[i]!] = hostBlock(site, answers); });
    for (let a = 0; a < names.length; a++) {
      for (let b = a + 1; b < names.length; b++) {
        const bothLocal = answers.sites[a]!.kind === 'local' && answers.sites[b]!.kind === 'local';
        for (const tool of answers.tools) {
          benchmarks.push(...toolBlocks(tool, answers).map((block) => ({ tool, client: names[a], server: names[b], ...block, ...(bothLocal ? labPinning(tool) : {}) })));
        }
      }
    }
  }
  const doc = {
    name: answers.name.trim().replace(/[^A-Za-z0-9_-]+/g, '-').toLowerCase(),
    description: `${QUESTION_TEXT[answers.question]} (made with the netbench desktop wizard)`,
    hosts,
    benchmarks,
    ...(matrix ? { matrix: { axes: { zone_a: matrix.zones, zone_b: matrix.zones }, filter: 'zone_a < zone_b' } } : {}),
    publish: [{ type: 'json' }, { type: 'csv' }],
    options: { repetitions: answers.repetitions ?? DEFAULT_REPETITIONS, order: 'random' },
  };
  return stringify(doc, { lineWidth: 0, flowCollectionPadding: true });
}

const QUESTION_TEXT: Record<WizardAnswers['question'], string> = {
  latency: 'Latency between zones/regions',
  throughput: 'Throughput between zones/regions',
  pps: 'Packets per second',
  onprem: 'On-premises to cloud',
};

/** Three or more cloud sites of one cloud and machine type in distinct zones: a matrix over the zones. */
function zoneMatrix(sites: readonly WizardSite[]): { cloud: string; machineType: string; zones: string[] } | undefined {
  if (sites.length < 3 || !sites.every((s) => s.kind === 'cloud')) return undefined;
  const cloud = sites as readonly Extract<WizardSite, { kind: 'cloud' }>[];
  const first = cloud[0]!;
  const zones = cloud.map((s) => s.zone);
  if (!cloud.every((s) => s.cloud === first.cloud && s.machineType === first.machineType) || new Set(zones).size !== zones.length) return undefined;
  return { cloud: first.cloud, machineType: first.machineType, zones: [...zones].sort() };
}

function hostBlock(site: WizardSite, answers: WizardAnswers): Record<string, unknown> {
  switch (site.kind) {
    case 'local': {
      const link = linkBlock(answers);
      return link ? { cloud: 'local', link } : { cloud: 'local' };
    }
    case 'cloud': return { cloud: site.cloud, zone: site.zone, machineType: site.machineType };
    case 'ssh': return {
      cloud: 'static', address: site.address,
      ...(site.user !== undefined ? { user: site.user } : {}),
      ...(site.port !== undefined ? { port: site.port } : {}),
      ...(site.key !== undefined ? { key: site.key } : {}),
      ...(site.zone !== undefined ? { zone: site.zone } : {}),
    };
  }
}

/** The local plugin's `link`: tc units spelled in bits (`mbit`), never tc's ambiguous `mbps` (bytes). */
function linkBlock(answers: WizardAnswers): Record<string, string> | undefined {
  const s = answers.shaping;
  if (!s) return undefined;
  const link: Record<string, string> = {};
  if (s.rateMbit !== undefined) link['rate'] = `${s.rateMbit}mbit`;
  if (s.delayMs !== undefined && s.delayMs > 0) link['delay'] = `${s.delayMs}ms`;
  if (s.lossPercent !== undefined && s.lossPercent > 0) link['loss'] = `${s.lossPercent}%`;
  return Object.keys(link).length > 0 ? link : undefined;
}

/**
 * Two local sites are namespaces of this machine: both ends share its CPUs and
 * where the scheduler puts them decides the result (~4x for TCP_RR on 2 vCPUs),
 * so each end gets a CPU of its own, the same in every run (what `plan` asks
 * for, so the spec carries no placement warning). ping has no server process.
 */
function labPinning(tool: WizardAnswers['tools'][number]): Record<string, unknown> {
  return { cpus: tool === 'ping' ? { client: 0 } : { client: 0, server: 1 } };
}

/** The benchmark blocks of one tool (two for iperf3 in both directions: `reverse` is one value). */
function toolBlocks(tool: WizardAnswers['tools'][number], answers: WizardAnswers): Record<string, unknown>[] {
  const duration = answers.durationSeconds;
  const direction = answers.direction ?? 'forward';
  const streams = answers.streams ?? (answers.question === 'throughput' ? 2 : 1);
  switch (tool) {
    // 20 requests a second: per-packet percentiles without needing root for a short interval.
    case 'ping': return [{ count: Math.max(5, Math.round(duration * 20)), interval: 0.05, direction }];
    case 'netperf': return [{ tests: netperfTests(answers.netperfTests ?? DEFAULT_NETPERF_TESTS[answers.question], direction), streams, duration }];
    case 'iperf3': {
      const protocol = answers.protocol ?? (answers.question === 'pps' ? 'udp' : 'tcp');
      const block = {
        protocol: protocol === 'both' ? ['tcp', 'udp'] : protocol,
        streams,
        duration,
        // Short runs still draw a time series of several points.
        interval: duration <= 10 ? 0.5 : 1,
      };
      return direction === 'both' ? [{ ...block, reverse: false }, { ...block, reverse: true }] : [{ ...block, reverse: direction === 'reverse' }];
    }
  }
}

/**
 * Request/response tests go both ways by nature; TCP_STREAM measures
 * client → server and TCP_MAERTS server → client. UDP_STREAM has no reverse
 * test in netperf: it stays (forward) and the plan shows it so.
 */
function netperfTests(tests: readonly WizardNetperfTest[], direction: WizardAnswers['direction'] & string): string[] {
  const out: string[] = [];
  for (const test of tests) {
    if (test !== 'TCP_STREAM') out.push(test);
    else {
      if (direction !== 'reverse') out.push('TCP_STREAM');
      if (direction !== 'forward') out.push('TCP_MAERTS');
    }
  }
  return [...new Set(out)];
}

/** Host names people can read in results: the zone, the SSH address, or `local-N`; unique. */
function siteNames(sites: readonly WizardSite[]): string[] {
  const used = new Map<string, number>();
  return sites.map((site, i) => {
    const base = site.kind === 'cloud' ? `${site.cloud}-${site.zone}` : site.kind === 'ssh' ? `ssh-${site.address}` : `local-${i + 1}`;
    const clean = base.replace(/[^A-Za-z0-9_-]/g, '-').toLowerCase();
    const count = (used.get(clean) ?? 0) + 1;
    used.set(clean, count);
    return count === 1 ? clean : `${clean}-${count}`;
  });
}
