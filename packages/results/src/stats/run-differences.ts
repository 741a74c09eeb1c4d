import type { Labels, RunRecord, Sample } from '@netbench/plugin-api';
import { parse } from 'yaml';
import { isEnvironmentLabel } from './series-key.js';

/** One thing the two sides of a comparison differ in, besides the numbers. */
export interface Difference {
  /** A spec path (`hosts.b.link.rate`) or a sample label (`client_zone`, `iperf3_version`). */
  readonly field: string;
  /** `spec`: the spec files differ there; `labels`: the samples' labels (hosts, zones, machine types, versions, kernel). */
  readonly source: 'spec' | 'labels';
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
  return [...specDifferences(baseline.runs, candidate.runs), ...labelDifferences(baseline, candidate)].slice(0, MAX);
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
