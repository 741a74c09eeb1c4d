import type { SpecCheck } from '../../shared/bridge-types';

type Trial = Extract<SpecCheck, { ok: true }>['plan']['trials'][number];
type Cost = Extract<SpecCheck, { ok: true }>['cost'];

/** A trial's parameters for the plan table: direction first, the rest as the plan gives them; never the repetition. */
export function paramText(params: Readonly<Record<string, string | number | boolean>> | undefined): string {
  if (!params) return '';
  const entries = Object.entries(params).filter(([k]) => k !== 'repetition');
  const first = ['direction', 'reverse', 'protocol', 'streams'];
  entries.sort((a, b) => (first.indexOf(a[0]) + 1 || 99) - (first.indexOf(b[0]) + 1 || 99));
  return entries.map(([k, v]) => `${k}=${String(v)}`).join(' ');
}

export interface TrialGroup {
  readonly client: string;
  readonly server: string;
  readonly tool: string;
  readonly test: string;
  readonly params: string;
  /** Trials of this pair, test and parameters (its repetitions). */
  readonly n: number;
}

/** The plan's trials as one row per pair × test × parameters with how many trials it has, in plan order. */
export function groupTrials(trials: readonly Trial[]): TrialGroup[] {
  const groups = new Map<string, TrialGroup>();
  for (const t of trials) {
    const params = paramText(t.params);
    const key = JSON.stringify([t.client, t.server, t.tool, t.test, params]);
    const group = groups.get(key);
    groups.set(key, group ? { ...group, n: group.n + 1 } : { client: t.client, server: t.server, tool: t.tool, test: t.test, params, n: 1 });
  }
  return [...groups.values()];
}

/** A priced item above this share of the estimate is called out: one kind of traffic (cross-cloud egress) paying for most of the run. */
export const LARGE_COST_SHARE = 0.4;

/** Items of the estimate that are a large share of it, largest first, with their share. */
export function largeCostShares(cost: Cost): { cloud: string; description: string; usd: number; share: number }[] {
  if (!(cost.usd > 0)) return [];
  const items = cost.clouds.flatMap((c) => (c.items ?? []).map((item) => ({ cloud: c.cloud, description: item.description, usd: item.usd, share: item.usd / cost.usd })));
  return items.filter((i) => i.share >= LARGE_COST_SHARE && items.length > 1).sort((a, b) => b.share - a.share);
}
