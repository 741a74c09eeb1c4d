import type { ComparisonResult } from '@netbench/results';

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
  return (
    `${all ? 'Not tested: every row has' : `Not tested: ${none} of ${result.rows.length} rows have`} one run on a side, and a run's packets, intervals and repetitions describe one condition, they are not replicates. ` +
    "Compare several runs a side (two label selections, e.g. spec=NAME and a time or run label): with 2 or 3 a side Welch's t-test on logarithms decides single figures, from 4 a side Mann–Whitney."
  );
}

/** What differs between the sides, the repetition note and the bookkeeping left out: said once, above the table. */
export function CompareNotes({ result }: { result: ComparisonResult }) {
  const note = repetitionNote(result);
  const left = result.leftOut.baseline + result.leftOut.candidate;
  return (
    <ul className="plain small" data-testid="compare-notes">
      <li data-testid="compare-differences">
        <strong>Differs:</strong>{' '}
        {result.differences.length === 0 ? (
          <span className="muted">nothing in the specs or in hosts, zones, machine types, tool versions</span>
        ) : (
          result.differences.map((d, i) => (
            <span key={d.field}>
              {i > 0 ? ' · ' : ''}
              <code>{differenceText(d)}</code>
            </span>
          ))
        )}
      </li>
      {note && (
        <li className="warn-text" data-testid="compare-repetition-note">
          {note}
        </li>
      )}
      {result.welch.note && (
        <li data-testid="compare-welch-note">
          Welch&apos;s t-test on logarithms decided {result.welch.rows} of {result.rows.length} rows: {result.welch.note}.
        </li>
      )}
      {result.tooFew.note && (
        <li className="warn-text" data-testid="compare-too-few-note">
          Too few repetitions in {result.tooFew.rows} of {result.rows.length} rows: {result.tooFew.note}.
        </li>
      )}
      {left > 0 && (
        <li className="muted" data-testid="compare-left-out">
          {left} run-level bookkeeping samples (phase_duration) left out of the comparison.
        </li>
      )}
    </ul>
  );
}
