import { stringify } from 'yaml';
import type { WizardAnswers, WizardSite } from '../shared/bridge-types.js';

/** netperf tests and iperf3 protocol that answer each question. */
const NETPERF_TESTS = { latency: ['TCP_RR'], throughput: ['TCP_STREAM'], pps: ['UDP_RR'], onprem: ['TCP_RR', 'TCP_STREAM'] } as const;

/**
 * The spec the wizard's answers describe: one host per site, and every
 * chosen tool between each pair of sites (first site as client). Returned as
 * YAML text for the editor, where the user can change anything before running.
 */
export function generateSpec(answers: WizardAnswers): string {
  const names = siteNames(answers.sites);
  const hosts: Record<string, unknown> = {};
  answers.sites.forEach((site, i) => { hosts[names[i]!] = hostBlock(site); });

  const benchmarks: Record<string, unknown>[] = [];
  for (let a = 0; a < names.length; a++) {
    for (let b = a + 1; b < names.length; b++) {
      for (const tool of answers.tools) benchmarks.push({ tool, client: names[a], server: names[b], ...toolBlock(tool, answers) });
    }
  }
  const doc = {
    name: answers.name.trim().replace(/[^A-Za-z0-9_-]+/g, '-').toLowerCase(),
    description: `${QUESTION_TEXT[answers.question]} (made with the netbench desktop wizard)`,
    hosts,
    benchmarks,
    publish: [{ type: 'json' }, { type: 'csv' }],
  };
  return stringify(doc, { lineWidth: 0, flowCollectionPadding: true });
}

const QUESTION_TEXT: Record<WizardAnswers['question'], string> = {
  latency: 'Latency between zones/regions',
  throughput: 'Throughput between zones/regions',
  pps: 'Packets per second',
  onprem: 'On-premises to cloud',
};

function hostBlock(site: WizardSite): Record<string, unknown> {
  switch (site.kind) {
    case 'local': return { cloud: 'local' };
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

function toolBlock(tool: WizardAnswers['tools'][number], answers: WizardAnswers): Record<string, unknown> {
  const duration = answers.durationSeconds;
  switch (tool) {
    // 20 requests a second: per-packet percentiles without needing root for a short interval.
    case 'ping': return { count: Math.max(5, Math.round(duration * 20)), interval: 0.05 };
    case 'netperf': return { tests: [...NETPERF_TESTS[answers.question]], duration };
    case 'iperf3': return {
      protocol: answers.question === 'pps' ? 'udp' : 'tcp',
      streams: answers.question === 'throughput' ? 2 : 1,
      duration,
      // Short runs still draw a time series of several points.
      interval: duration <= 10 ? 0.5 : 1,
    };
  }
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
