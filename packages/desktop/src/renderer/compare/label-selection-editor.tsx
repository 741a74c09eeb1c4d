import type { LabelPair, StoreLabels } from '../../shared/bridge-types';

/**
 * One side's `key=value` conditions. Keys and values present in the store
 * are offered (datalists); anything can be typed, as on the command line.
 */
export function LabelSelectionEditor({
  side,
  pairs,
  setPairs,
  labels,
}: {
  side: 'baseline' | 'candidate';
  pairs: LabelPair[];
  setPairs(pairs: LabelPair[]): void;
  labels: StoreLabels | undefined;
}) {
  const update = (i: number, pair: LabelPair) => setPairs(pairs.map((p, j) => (j === i ? pair : p)));
  const title = side === 'baseline' ? 'Baseline' : 'Candidate';
  return (
    <fieldset className="panel selection" data-testid={`${side}-selection`}>
      <legend>{title}: every stored sample with all of these labels</legend>
      {pairs.map((pair, i) => {
        const known = labels?.keys.find((k) => k.key === pair.key.trim());
        const valuesId = `${side}-values-${i}`;
        return (
          <div key={i} className="row selection-row">
            {/* Named "Baseline key 1" for assistive technology; the fieldset already says which side. */}
            <label>
              <span className="sr-only">{title} </span>key<span className="sr-only"> {i + 1}</span>
              <input value={pair.key} list="store-label-keys" placeholder="client_zone" onChange={(e) => update(i, { ...pair, key: e.target.value })} />
            </label>
            <span aria-hidden="true">=</span>
            <label>
              <span className="sr-only">{title} </span>value<span className="sr-only"> {i + 1}</span>
              <input
                value={pair.value}
                list={valuesId}
                placeholder="us-east1-b"
                onChange={(e) => update(i, { ...pair, value: e.target.value })}
                aria-invalid={pair.key.trim() !== '' && pair.value === ''}
              />
            </label>
            <datalist id={valuesId}>
              {known?.values.map((v) => (
                <option key={v.value} value={v.value}>{`${v.runs} run${v.runs === 1 ? '' : 's'}`}</option>
              ))}
            </datalist>
            {known?.manyValues && <span className="muted small">too many values to list — type one</span>}
            <button type="button" disabled={pairs.length <= 1} onClick={() => setPairs(pairs.filter((_, j) => j !== i))} aria-label={`Remove ${side} condition ${i + 1}`}>
              Remove
            </button>
          </div>
        );
      })}
      <div className="row">
        <button type="button" onClick={() => setPairs([...pairs, { key: '', value: '' }])}>
          Add a condition
        </button>
      </div>
    </fieldset>
  );
}

/** Every key in the store, most common first, for all the key inputs. */
export function LabelKeyList({ labels }: { labels: StoreLabels | undefined }) {
  return (
    <datalist id="store-label-keys">
      {labels?.keys.map((k) => (
        <option
          key={k.key}
          value={k.key}
        >{`${k.runs} run${k.runs === 1 ? '' : 's'}, ${k.manyValues ? 'over 200' : k.values.length} value${k.values.length === 1 && !k.manyValues ? '' : 's'}`}</option>
      ))}
    </datalist>
  );
}
