import type { ComparisonResult, ComparisonRow } from '@netbench/results';

/** A row with one value on a side: no test was possible (said once in the header, not per row). */
export const unrepeated = (row: ComparisonRow) => row.verdict === 'no repetitions';

/** candidate / baseline: `×1.48`, `×0.04` (as `netbench compare`'s ratio column) — reads where bars of very different sizes do not. */
export function ratio(row: ComparisonRow): string {
  if (row.baseline.value === 0 || !Number.isFinite(row.baseline.value) || !Number.isFinite(row.candidate.value)) return '—';
  const r = row.candidate.value / row.baseline.value;
  return `×${r >= 100 ? Math.round(r).toLocaleString('en-US') : Number(r.toPrecision(r < 0.01 ? 1 : 3))}`;
}

/** `hosts.b.link.rate: — → 200mbit`; more than three values of a side shortened with `…`. */
export function differenceText(d: ComparisonResult['differences'][number]): string {
  const side = (values: readonly string[]) => (values.length > 3 ? `${values.slice(0, 3).join(', ')}, …` : values.join(', '));
  return `${d.field}: ${side(d.baseline)} → ${side(d.candidate)}`;
}

/** The note about unrepeated rows, or nothing when every row was tested. */
export function repetitionNote(result: ComparisonResult): string | undefined {
  const none = result.unrepeated;
  if (none === 0) return undefined;
  const all = none === result.rows.length;
  return `${all ? 'Not tested: every row has' : `Not tested: ${none} of ${result.rows.length} rows have`} one run on a side, and a run's packets, intervals and repetitions describe one condition, they are not replicates. `
    + 'Compare several runs a side (two label selections, e.g. spec=NAME and a time or run label): with 2 or 3 a side Welch\'s t-test on logarithms decides single figures, from 4 a side Mann–Whitney.';
}

/** What differs between the sides, the repetition note and the bookkeeping left out: said once, above the table. */
export function CompareNotes({ result }: { result: ComparisonResult }) {
  const note = repetitionNote(result);
  const left = result.leftOut.baseline + result.leftOut.candidate;
  return (
    <ul className="plain small" data-testid="compare-notes">
      <li data-testid="compare-differences">
        <strong>Differs:</strong>{' '}
        {result.differences.length === 0
          ? <span className="muted">nothing in the specs or in hosts, zones, machine types, tool versions</span>
          : result.differences.map((d, i) => <span key={d.field}>{i > 0 ? ' · ' : ''}<code>{differenceText(d)}</code></span>)}
      </li>
      {note && <li className="warn-text" data-testid="compare-repetition-note">{note}</li>}
      {result.welch.note && <li data-testid="compare-welch-note">Welch&apos;s t-test on logarithms decided {result.welch.rows} of {result.rows.length} rows: {result.welch.note}.</li>}
      {result.tooFew.note && <li className="warn-text" data-testid="compare-too-few-note">Too few repetitions in {result.tooFew.rows} of {result.rows.length} rows: {result.tooFew.note}.</li>}
      {left > 0 && <li className="muted" data-testid="compare-left-out">{left} run-level bookkeeping samples (phase_duration) left out of the comparison.</li>}
    </ul>
  );
}
