/** The line exported charts carry: which run(s) and when, `run 20261125-014403-w26661 · 2026-11-25 01:44 UTC`. */
export function exportFooter(runs: readonly { readonly runId: string; readonly startedAt?: string }[]): string {
  const ids = runs.map((r) => r.runId);
  const dates = [...new Set(runs.map((r) => (r.startedAt ? utc(r.startedAt) : '')).filter(Boolean))];
  return [`${ids.length === 1 ? 'run' : 'runs'} ${ids.join(', ')}`, ...(dates.length ? [dates.join(', ')] : [])].join(' · ') + ' · netbench';
}

function utc(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
