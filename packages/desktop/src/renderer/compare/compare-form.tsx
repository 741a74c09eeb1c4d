import { useState } from 'react';
import type { LabelPair } from '../../shared/bridge-types';
import { completePairs, encodeSelection } from '../lib/label-selection';
import { go } from '../lib/route';
import { useCall } from '../lib/use-call';
import { LabelKeyList, LabelSelectionEditor } from './label-selection-editor';

export type CompareMode = 'runs' | 'labels';

export interface CompareChoice {
  readonly mode: CompareMode;
  readonly runs?: readonly [string, string];
  readonly labels?: readonly [readonly LabelPair[], readonly LabelPair[]];
}

const EMPTY: LabelPair[] = [{ key: '', value: '' }];

/** What to compare: two runs, or two label selections (`netbench compare --baseline k=v --candidate k=v`). */
export function CompareForm({ initial }: { initial: CompareChoice }) {
  const [mode, setMode] = useState<CompareMode>(initial.mode);
  const [baselineRun, setBaselineRun] = useState(initial.runs?.[0] ?? '');
  const [candidateRun, setCandidateRun] = useState(initial.runs?.[1] ?? '');
  const [baseline, setBaseline] = useState<LabelPair[]>(initial.labels ? [...initial.labels[0]] : EMPTY);
  const [candidate, setCandidate] = useState<LabelPair[]>(initial.labels ? [...initial.labels[1]] : EMPTY);
  const runs = useCall('listRuns', { limit: 200 }, 'compare-runs');
  const sides = [completePairs(baseline), completePairs(candidate)] as const;
  const missingValue = sides.some((s) => s.some((p) => p.value === ''));
  const labelsReady = sides.every((s) => s.length > 0) && !missingValue;
  const runsReady = baselineRun !== '' && candidateRun !== '';

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (mode === 'runs' && runsReady) go('compare', baselineRun, candidateRun);
    if (mode === 'labels' && labelsReady) go('compare', 'labels', encodeSelection(sides[0]), encodeSelection(sides[1]));
  };

  return (
    <form className="compare-form" onSubmit={submit} aria-label="What to compare" data-testid="compare-form">
      <fieldset className="mode-switch">
        <legend className="sr-only">Compare</legend>
        <label>
          <input type="radio" name="compare-mode" checked={mode === 'runs'} onChange={() => setMode('runs')} /> two runs
        </label>
        <label>
          <input type="radio" name="compare-mode" checked={mode === 'labels'} onChange={() => setMode('labels')} /> two label selections
        </label>
      </fieldset>
      {mode === 'runs' ? (
        <div className="row">
          {(
            [
              ['Baseline run', baselineRun, setBaselineRun],
              ['Candidate run', candidateRun, setCandidateRun],
            ] as const
          ).map(([label, value, set]) => (
            <label key={label}>
              {label}{' '}
              <select value={value} onChange={(e) => set(e.target.value)}>
                <option value="">choose…</option>
                {value !== '' && !runs.data?.runs.some((r) => r.runId === value) && <option value={value}>{value}</option>}
                {runs.data?.runs.map((r) => (
                  <option key={r.runId} value={r.runId}>
                    {r.runId} {r.name}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
      ) : (
        <LabelSelections baseline={baseline} setBaseline={setBaseline} candidate={candidate} setCandidate={setCandidate} missingValue={missingValue} />
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={mode === 'runs' ? !runsReady : !labelsReady} data-testid="compare-submit">
          Compare
        </button>
      </div>
    </form>
  );
}

/** Label mode: both sides' conditions, with the store's keys and values offered (read only once this mode is chosen). */
function LabelSelections({
  baseline,
  setBaseline,
  candidate,
  setCandidate,
  missingValue,
}: {
  baseline: LabelPair[];
  setBaseline(p: LabelPair[]): void;
  candidate: LabelPair[];
  setCandidate(p: LabelPair[]): void;
  missingValue: boolean;
}) {
  const labels = useCall('storeLabels', {}, 'store-labels');
  return (
    <>
      <LabelKeyList labels={labels.data} />
      {labels.error && (
        <p className="error-text small" role="alert">
          Could not list the store's labels: {labels.error.message} (type them instead)
        </p>
      )}
      <div className="selection-grid">
        <LabelSelectionEditor side="baseline" pairs={baseline} setPairs={setBaseline} labels={labels.data} />
        <LabelSelectionEditor side="candidate" pairs={candidate} setPairs={setCandidate} labels={labels.data} />
      </div>
      {missingValue && <p className="error-text small">Give every condition a value.</p>}
      <p className="muted small">
        The keys that tell the two sides apart are not compared as configuration: <code>zone=a</code> against <code>zone=b</code> lines up the same tests measured in each zone.
      </p>
    </>
  );
}
