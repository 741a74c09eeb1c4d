import { useState } from 'react';
import type { LabelPair } from '../../shared/bridge-types';
import { type CompareChoice, CompareForm } from '../compare/compare-form';
import { ComparisonView } from '../compare/comparison-view';
import { call } from '../lib/bridge-client';
import { decodeSelection, encodeSelection, selectionText } from '../lib/label-selection';
import { href } from '../lib/route';
import { saveFile } from '../lib/save-file';
import { Loaded } from '../lib/status';
import { useCall } from '../lib/use-call';

/**
 * Compare: the form (two runs or two label selections) and, once chosen,
 * core's verdicts and both sides' charts. Routes: `#/compare`, `#/compare/labels`,
 * `#/compare/RUN_A/RUN_B`, `#/compare/labels/SELECTION_A/SELECTION_B`.
 */
export function ComparePage({ args }: { args: readonly string[] }) {
  const choice = parseArgs(args);
  return (
    <section aria-labelledby="compare-title" data-testid="compare-page">
      <h1 id="compare-title">{title(choice)}</h1>
      {/* Keyed by the route: the form starts from what is shown. */}
      <CompareForm key={args.join('/')} initial={choice ?? { mode: 'runs' }} />
      {choice && <Swap choice={choice} />}
      {choice?.runs && <RunsComparison baseline={choice.runs[0]} candidate={choice.runs[1]} />}
      {choice?.labels && <SelectionsComparison baseline={choice.labels[0]} candidate={choice.labels[1]} />}
    </section>
  );
}

function RunsComparison({ baseline, candidate }: { baseline: string; candidate: string }) {
  const page = useCall('compareRuns', { baseline, candidate }, `${baseline}/${candidate}`);
  return (
    <Loaded state={page} what="the comparison">
      {(p) => (
        <>
          <ExportComparison baseline={baseline} candidate={candidate} />
          <ComparisonView page={p} />
        </>
      )}
    </Loaded>
  );
}

/** The comparison as a report file: every row's verdict first, then both runs and their charts (as `netbench compare A B --out`). */
function ExportComparison({ baseline, candidate }: { baseline: string; candidate: string }) {
  const [status, setStatus] = useState<{ ok: boolean; text: string } | undefined>();
  const exportAs = async (format: 'html' | 'md') => {
    setStatus(undefined);
    try {
      const file = await call('exportComparison', { baseline, candidate, format });
      const saved = await saveFile(file.fileName, file.content, file.mimeType);
      if (saved.done) setStatus({ ok: true, text: saved.message });
    } catch (e) {
      setStatus({ ok: false, text: (e as Error).message });
    }
  };
  return (
    <>
      <div className="row" role="group" aria-label="Export the comparison" data-testid="compare-exports">
        <span className="muted small">Export the comparison with its verdicts</span>
        <button type="button" onClick={() => void exportAs('html')}>
          Report (HTML)
        </button>
        <button type="button" onClick={() => void exportAs('md')}>
          Markdown
        </button>
      </div>
      {status && (
        <p className={status.ok ? 'muted small' : 'error-text'} role={status.ok ? 'status' : 'alert'} data-testid="compare-export-status">
          {status.text}
        </p>
      )}
    </>
  );
}

function SelectionsComparison({ baseline, candidate }: { baseline: readonly LabelPair[]; candidate: readonly LabelPair[] }) {
  const page = useCall('compareSelections', { baseline, candidate }, `${encodeSelection(baseline)}/${encodeSelection(candidate)}`);
  return (
    <Loaded state={page} what="the comparison">
      {(p) => <ComparisonView page={p} />}
    </Loaded>
  );
}

function parseArgs(args: readonly string[]): CompareChoice | undefined {
  if (args.length === 3 && args[0] === 'labels') {
    const baseline = decodeSelection(args[1]!);
    const candidate = decodeSelection(args[2]!);
    if (baseline.length > 0 && candidate.length > 0) return { mode: 'labels', labels: [baseline, candidate] };
  }
  if (args.length === 1 && args[0] === 'labels') return { mode: 'labels' };
  if (args.length === 2) return { mode: 'runs', runs: [args[0]!, args[1]!] };
  return undefined;
}

function title(choice: CompareChoice | undefined) {
  if (choice?.runs) {
    const [a, b] = choice.runs;
    return (
      <>
        Compare{' '}
        <a href={href('run', a)}>
          <code>{a}</code>
        </a>{' '}
        (baseline) →{' '}
        <a href={href('run', b)}>
          <code>{b}</code>
        </a>{' '}
        (candidate)
      </>
    );
  }
  if (choice?.labels)
    return (
      <>
        Compare <code>{selectionText(choice.labels[0])}</code> (baseline) → <code>{selectionText(choice.labels[1])}</code> (candidate)
      </>
    );
  return <>Compare</>;
}

/** The baseline is the user's choice: one click makes the candidate the baseline. */
function Swap({ choice }: { choice: CompareChoice }) {
  const to = choice.runs
    ? href('compare', choice.runs[1], choice.runs[0])
    : choice.labels
      ? href('compare', 'labels', encodeSelection(choice.labels[1]), encodeSelection(choice.labels[0]))
      : undefined;
  if (!to) return null;
  return (
    <p className="small" data-testid="compare-baseline-choice">
      Baseline: <strong>{choice.runs ? choice.runs[0] : selectionText(choice.labels![0])}</strong>{' '}
      <a className="button" href={to} data-testid="compare-swap">
        Swap baseline and candidate
      </a>
    </p>
  );
}
