import type { ComparisonResult, CounterSide, LimitSummary } from '@netbench/results';

const sideText = (s: CounterSide | undefined) =>
  s === undefined
    ? '—'
    : s.n === 1 || s.min === s.max
      ? s.median.toLocaleString('en-US')
      : `${s.median.toLocaleString('en-US')} [${s.min.toLocaleString('en-US')}–${s.max.toLocaleString('en-US')}]`;
const limitsText = (limits: readonly LimitSummary[]) => limits.map((l) => `${l.text}${l.trials < l.of ? ` (${l.trials} of ${l.of} trials)` : ''}`).join(', ') || '—';

/** Per configuration: what limited each side's trials and their key host counters (as `netbench compare` lists them; docs/explain.md). */
export function CounterComparison({ result }: { result: ComparisonResult }) {
  const configurations = result.counters ?? [];
  if (configurations.length === 0) return null;
  return (
    <section data-testid="compare-counters">
      <h2>Host counters</h2>
      <p className="muted small">Each trial is one value (the largest over its ends); a side shows the median [min–max] of its trials.</p>
      {configurations.map((c) => (
        <div key={c.configuration} className="panel">
          <p>
            <strong>{c.configuration}</strong>{' '}
            <span className="muted small">
              trials {c.trials.baseline}/{c.trials.candidate}
            </span>
          </p>
          <p data-testid="compare-limited-by">
            limited by: {limitsText(c.limitedBy.baseline)} → {limitsText(c.limitedBy.candidate)}
          </p>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">counter</th>
                <th scope="col">unit</th>
                <th scope="col">baseline</th>
                <th scope="col">candidate</th>
              </tr>
            </thead>
            <tbody>
              {c.counters.map((k) => (
                <tr key={k.name}>
                  <td>
                    <code>{k.name}</code>
                  </td>
                  <td>{k.unit}</td>
                  <td>{sideText(k.baseline)}</td>
                  <td>{sideText(k.candidate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
