import { formatNumber } from '@netbench/report/units';
import type { ComparedCounter, ConfigurationCounters, CounterSide, LimitSummary } from '@netbench/results';
import { formatTable } from './table.js';

const sideText = (s: CounterSide | undefined) =>
  s === undefined
    ? '—'
    : s.n === 1 || s.min === s.max
      ? `${formatNumber(s.median)}${s.n > 1 ? ` (n=${s.n})` : ''}`
      : `${formatNumber(s.median)} [${formatNumber(s.min)}–${formatNumber(s.max)}] (n=${s.n})`;
const limitsText = (limits: readonly LimitSummary[]) => limits.map((l) => `${l.text}${l.trials < l.of ? ` (${l.trials} of ${l.of} trials)` : ''}`).join(', ') || '—';

/**
 * Under `compare`'s table: per configuration, what limited each side's
 * trials (`shaped-link 95 % of 50 Mbit/s → shaped-link 94 % of 100 Mbit/s`)
 * and each side's key counters, median [min–max] over its trials.
 */
export function formatComparedCounters(configurations: readonly ConfigurationCounters[]): string[] {
  if (configurations.length === 0) return [];
  const lines = ['', "host counters per trial (each trial one value: the largest over its ends; median [min–max] over a side's trials; docs/explain.md):"];
  for (const c of configurations) {
    lines.push(`${c.configuration}  (trials ${c.trials.baseline}/${c.trials.candidate})`);
    lines.push(`  limited by: ${limitsText(c.limitedBy.baseline)} → ${limitsText(c.limitedBy.candidate)}`);
    const table = formatTable<ComparedCounter>(c.counters, [
      { header: 'counter', value: (r) => r.name },
      { header: 'unit', value: (r) => r.unit },
      { header: 'baseline', value: (r) => sideText(r.baseline), align: 'right' },
      { header: 'candidate', value: (r) => sideText(r.candidate), align: 'right' },
    ]);
    lines.push(...table.split('\n').map((l) => `  ${l}`));
  }
  return lines;
}
