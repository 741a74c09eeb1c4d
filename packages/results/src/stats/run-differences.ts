import type { Labels, RunRecord, Sample } from '@netbench/plugin-api';
import { parse } from 'yaml';
import { isEnvironmentLabel } from './series-key.js';

/** One thing the two sides of a comparison differ in, besides the numbers. */
export interface Difference {
  /** A spec path (`hosts.b.link.rate`) or a sample label (`client_zone`, `iperf3_version`). */
  readonly field: string;
  /** `spec`: the spec files differ there; `labels`: the samples' labels (hosts, zones, machine types, versions, kernel); `host`: a host's fingerprint (docs/explain.md). */
  readonly source: 'spec' | 'labels' | 'host';
  /** Values on each side, `—` where a side has none. */
  readonly baseline: readonly string[];
  readonly candidate: readonly string[];
}

export interface Side {
  readonly runs: readonly RunRecord[];
  readonly samples: readonly Sample[];
}

const MAX = 16;
const NONE = '—';
// Labels that name the host pair, besides the environment labels.
const HOST_LABELS = new Set(['client_host', 'server_host']);
// Per-run names (namespaces, run ids) differ in every run and say nothing.
const PER_RUN_RE = /(?:^|_)(?:netns|run_id)$/;

/**
 * What differs between two sides besides their results, for the header of
 * a comparison: spec fields (when each side is one run with its spec text),
 * then the hosts, zones, machine types, OS, tool versions and kernel the
 * samples were measured with. At most 16, spec fields first.
 */
export function runDifferences(baseline: Side, candidate: Side): Difference[] {
  return [...specDifferences(baseline.runs, candidate.runs), ...fingerprintDifferences(baseline.runs, candidate.runs), ...labelDifferences(baseline, candidate)].slice(0, MAX);
}

const FINGERPRINT_FIELDS = ['kernel', 'cpuModel', 'cpuCount', 'governor', 'virtualization', 'congestionControl', 'defaultQdisc'] as const;

/** A host's fingerprint as `field → value` (`kernel`, `net.core.rmem_max`, `eth0.mtu`, `offload.generic-receive-offload`). */
export function flattenFingerprint(fingerprint: Readonly<Record<string, unknown>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const key of FINGERPRINT_FIELDS) if (fingerprint[key] !== undefined) out.set(key, String(fingerprint[key]));
  for (const [k, v] of Object.entries((fingerprint['sysctls'] ?? {}) as Record<string, unknown>)) out.set(k, String(v));
  for (const i of (fingerprint['interfaces'] ?? []) as Record<string, unknown>[]) {
    for (const [k, v] of Object.entries(i)) if (k !== 'name') out.set(`${String(i['name'])}.${k}`, String(v));
  }
  for (const [k, v] of Object.entries((fingerprint['offloads'] ?? {}) as Record<string, unknown>)) out.set(`offload.${k}`, String(v));
  return out;
}

/**
 * What the hosts of the same name were on each side besides the network: a
 * kernel, a governor, a sysctl, an MTU or qdisc that changed (the runs' host
 * fingerprints; hosts without one on either side are left out).
 */
function fingerprintDifferences(a: readonly RunRecord[], b: readonly RunRecord[]): Difference[] {
  const byHost = (runs: readonly RunRecord[]) => {
    const hosts = new Map<string, Map<string, Set<string>>>();
    for (const host of runs.flatMap((r) => r.hosts)) {
      if (!host.fingerprint) continue;
      const fields = hosts.get(host.name) ?? new Map<string, Set<string>>();
      for (const [k, v] of flattenFingerprint(host.fingerprint)) fields.set(k, (fields.get(k) ?? new Set()).add(v));
      hosts.set(host.name, fields);
    }
    return hosts;
  };
  const [left, right] = [byHost(a), byHost(b)];
  const out: Difference[] = [];
  for (const [host, l] of left) {
    const r = right.get(host);
    if (!r) continue;
    for (const key of [...new Set([...l.keys(), ...r.keys()])].sort()) {
      const x = [...(l.get(key) ?? [])].sort();
      const y = [...(r.get(key) ?? [])].sort();
      if (x.join('\u0000') !== y.join('\u0000')) out.push({ field: `${host}: ${key}`, source: 'host', baseline: x.length ? x : [NONE], candidate: y.length ? y : [NONE] });
    }
  }
  return out;
}

function specDifferences(a: readonly RunRecord[], b: readonly RunRecord[]): Difference[] {
  if (a.length !== 1 || b.length !== 1) return [];
  const left = flatSpec(a[0]!);
  const right = flatSpec(b[0]!);
  if (!left || !right) return [];
  const paths = [...new Set([...left.keys(), ...right.keys()])].filter((p) => left.get(p) !== right.get(p));
  return paths.map((field) => ({ field, source: 'spec' as const, baseline: [left.get(field) ?? NONE], candidate: [right.get(field) ?? NONE] }));
}

/** The run's spec as `path → value` leaves (`hosts.b.link.rate → 200mbit`); undefined when it has no readable spec. */
function flatSpec(run: RunRecord): Map<string, string> | undefined {
  if (!run.specText) return undefined;
  let doc: unknown;
  try {
    doc = parse(run.specText);
  } catch {
    return undefined;
  }
  const leaves = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (value !== null && typeof value === 'object') {
      const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
      for (const [key, child] of entries) walk(child, path ? `${path}.${key}` : key);
    } else {
      leaves.set(path, String(value));
    }
  };
  walk(doc, '');
  return leaves;
}

function labelDifferences(a: Side, b: Side): Difference[] {
  const left = environment(a);
  const right = environment(b);
  const keys = [...new Set([...left.keys(), ...right.keys()])].sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
  const out: Difference[] = [];
  for (const key of keys) {
    const l = [...(left.get(key) ?? [])].sort();
    const r = [...(right.get(key) ?? [])].sort();
    if (l.join('\u0000') === r.join('\u0000')) continue;
    out.push({ field: key, source: 'labels', baseline: l.length ? l : [NONE], candidate: r.length ? r : [NONE] });
  }
  return out;
}

/** Hosts first, then zones, machine types, the rest. */
function rank(key: string): number {
  if (HOST_LABELS.has(key)) return 0;
  if (/zone|region/.test(key)) return 1;
  if (/machine_type|cloud/.test(key)) return 2;
  return 3;
}

function environment(side: Side): Map<string, Set<string>> {
  const values = new Map<string, Set<string>>();
  const seen = new Set<string>();
  for (const sample of side.samples) {
    if (sample.trialId === undefined) continue;
    // A trial's (or flow's) environment labels are the same on all its samples: read them once.
    const { labels } = sample;
    const key = `${sample.runId}\u0000${sample.trialId}\u0000${String(labels['client_host'])}\u0000${String(labels['server_host'])}\u0000${String(labels['flow'])}`;
    if (seen.has(key)) continue;
    seen.add(key);
    addLabels(values, labels);
  }
  return values;
}

function addLabels(values: Map<string, Set<string>>, labels: Labels): void {
  for (const [key, value] of Object.entries(labels)) {
    if (!(HOST_LABELS.has(key) || isEnvironmentLabel(key)) || PER_RUN_RE.test(key)) continue;
    let set = values.get(key);
    if (!set) values.set(key, (set = new Set()));
    set.add(String(value));
  }
}
