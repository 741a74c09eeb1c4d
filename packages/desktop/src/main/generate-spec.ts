import { NetbenchError } from '@netbench/plugin-api';
import { stringify } from 'yaml';
import type { WizardAnswers, WizardSite } from '../shared/bridge-types.js';
import { bulkDirections } from '../shared/bulk-directions.js';
import { DEFAULT_NETPERF_TESTS, toolBlocks } from './wizard-tool-blocks.js';

export { DEFAULT_NETPERF_TESTS } from './wizard-tool-blocks.js';

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
    const account = accountFields(matrix.cloud, answers);
    hosts['a'] = { cloud: matrix.cloud, zone: '${zone_a}', machineType: matrix.machineType, ...account };
    hosts['b'] = { cloud: matrix.cloud, zone: '${zone_b}', machineType: matrix.machineType, ...account };
    for (const tool of answers.tools) benchmarks.push(...toolBlocks(tool, answers).map((block) => ({ tool, client: 'a', server: 'b', ...block })));
  } else {
    const names = siteNames(answers.sites);
    const senders = bulkSenders(answers);
    answers.sites.forEach((site, i) => {
      hosts[names[i]!] = hostBlock(site, answers, senders.has(i));
    });
    for (const [a, b] of sitePairs(answers)) {
      const bothLocal = answers.sites[a]!.kind === 'local' && answers.sites[b]!.kind === 'local';
      for (const tool of answers.tools) {
        benchmarks.push(...toolBlocks(tool, answers).map((block) => ({ tool, client: names[a], server: names[b], ...block, ...(bothLocal ? labPinning(tool) : {}) })));
      }
    }
  }
  const doc = {
    name: answers.name
      .trim()
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .toLowerCase(),
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
  pps: 'Packets per second (small packets)',
  load: 'Latency under load',
  onprem: 'On-premises to cloud',
};

/** Two places on different clouds: their traffic crosses the internet and pays its egress. */
export function crossCloud(a: WizardSite, b: WizardSite): boolean {
  return a.kind === 'cloud' && b.kind === 'cloud' && a.cloud !== b.cloud;
}

/**
 * The pairs of places measured, as indexes (first as client). `within-cloud`
 * (the default) leaves out the pairs of two different clouds; when that
 * leaves nothing (one place per cloud) the default measures them and an
 * explicit `within-cloud` is an error, never an empty spec.
 */
export function sitePairs(answers: Pick<WizardAnswers, 'sites' | 'pairs'>): [number, number][] {
  const all: [number, number][] = [];
  for (let a = 0; a < answers.sites.length; a++) for (let b = a + 1; b < answers.sites.length; b++) all.push([a, b]);
  if (answers.pairs === 'all') return all;
  const within = all.filter(([a, b]) => !crossCloud(answers.sites[a]!, answers.sites[b]!));
  if (within.length > 0) return within;
  if (answers.pairs === 'within-cloud')
    throw new NetbenchError('every pair of these places is on two different clouds: measure cross-cloud pairs too, or add a second place on one cloud');
  return all;
}

/** Three or more cloud sites of one cloud and machine type in distinct zones: a matrix over the zones. */
function zoneMatrix(sites: readonly WizardSite[]): { cloud: string; machineType: string; zones: string[] } | undefined {
  if (sites.length < 3 || !sites.every((s) => s.kind === 'cloud')) return undefined;
  const cloud = sites as readonly Extract<WizardSite, { kind: 'cloud' }>[];
  const first = cloud[0]!;
  const zones = cloud.map((s) => s.zone);
  if (!cloud.every((s) => s.cloud === first.cloud && s.machineType === first.machineType) || new Set(zones).size !== zones.length) return undefined;
  return { cloud: first.cloud, machineType: first.machineType, zones: [...zones].sort() };
}

function hostBlock(site: WizardSite, answers: WizardAnswers, sendsBulk: boolean): Record<string, unknown> {
  switch (site.kind) {
    case 'local': {
      const link = linkBlock(answers, sendsBulk);
      return link ? { cloud: 'local', link } : { cloud: 'local' };
    }
    case 'cloud':
      return { cloud: site.cloud, zone: site.zone, machineType: site.machineType, ...accountFields(site.cloud, answers) };
    case 'ssh':
      return {
        cloud: 'static',
        address: site.address,
        ...(site.user !== undefined ? { user: site.user } : {}),
        ...(site.port !== undefined ? { port: site.port } : {}),
        ...(site.key !== undefined ? { key: site.key } : {}),
        ...(site.zone !== undefined ? { zone: site.zone } : {}),
      };
  }
}

/** The project or subscription a cloud's hosts are made in, in that plugin's host field. */
function accountFields(cloud: string, answers: WizardAnswers): Record<string, string> {
  const { gcpProject, azureSubscription } = answers.accounts ?? {};
  if (cloud === 'gcp' && gcpProject) return { project: gcpProject };
  if (cloud === 'azure' && azureSubscription) return { subscription: azureSubscription };
  return {};
}

/**
 * The places that send bulk traffic in some trial: a rate limits what a host
 * sends, so it goes on these only (on a host that only answers it shapes
 * nothing a trial measures, and `netbench plan` says so). Delay and loss go on
 * every local host: round trips cross both.
 */
export function bulkSenders(answers: WizardAnswers): Set<number> {
  const { forward, reverse } = bulkDirections({
    tools: answers.tools,
    netperfTests: answers.netperfTests ?? DEFAULT_NETPERF_TESTS[answers.question],
    direction: answers.direction ?? 'forward',
    loadTest: answers.loadTest,
  });
  const senders = new Set<number>();
  for (const [a, b] of sitePairs(answers)) {
    if (forward) senders.add(a);
    if (reverse) senders.add(b);
  }
  return senders;
}

/** The local plugin's `link`: tc units spelled in bits (`mbit`), never tc's ambiguous `mbps` (bytes). */
function linkBlock(answers: WizardAnswers, sendsBulk: boolean): Record<string, string> | undefined {
  const s = answers.shaping;
  if (!s) return undefined;
  const link: Record<string, string> = {};
  if (s.rateMbit !== undefined && sendsBulk) link['rate'] = `${s.rateMbit}mbit`;
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
