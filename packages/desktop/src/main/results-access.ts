import type { RunResults } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { formatCsv } from '@netbench/plugin-csv';
import { footerOf, renderHtml, renderMarkdown, renderSvg, svgDataUrl } from '@netbench/report';
import {
  type ComparisonResult,
  chartsFor,
  compareCounters,
  compareResults,
  compareSamples,
  exportResults,
  type LabelCondition,
  type RunList,
  runDifferences,
  runShow,
  type SideSummary,
  trendChart,
  withStore,
} from '@netbench/results';
import type { ComparePage, ExportedFile, ExportFormat, HistoryList, LabelPair, OverlayPage, ResultsFilter, RunPage, TrendPage } from '../shared/bridge-types.js';
import { SELECTION_CHART_RUNS, selectionResults } from './selection-results.js';

// The results pages read the same store `netbench results` reads; every
// function opens it, reads, and closes it (runs write to it meanwhile).

/** History, newest first. An absent store is an empty history, not an error. */
export async function listStoredRuns(db: string | undefined, filter: ResultsFilter): Promise<HistoryList> {
  return withStore(db, (store) => {
    const base = {
      ...(filter.spec ? { spec: filter.spec } : {}),
      ...(filter.tool ? { tool: filter.tool } : {}),
      ...(filter.since ? { since: new Date(`${filter.since}T00:00:00Z`) } : {}),
    };
    let list: RunList;
    if (!filter.status) list = store.list({ ...base, ...(filter.limit ? { limit: filter.limit } : {}) });
    else {
      // The store filters by spec, tool and time; status is filtered here, before the limit.
      const all = store.list(base).runs.filter((r) => r.status === filter.status);
      list = { runs: filter.limit ? all.slice(0, filter.limit) : all, total: all.length };
    }
    // Each run's headline number (the median of its primary metric) for the history table.
    const headlines = store.headlines(list.runs.map((r) => r.runId));
    return {
      total: list.total,
      runs: list.runs.map((r) => {
        const h = headlines.get(r.runId);
        return h ? { ...r, headline: h } : r;
      }),
    };
  });
}

/**
 * A run's page: the summary `netbench results show` prints and the charts
 * `chartsFor` picks, from one read of the run (a 100,000-sample run took
 * seconds to read, and was read twice).
 */
export async function showStoredRun(db: string | undefined, runId: string): Promise<RunPage> {
  return withStore(
    db,
    async (store) => {
      const results = store.load(store.resolve(runId));
      // Between the steps, let the process answer what waits meanwhile (the page's own code,
      // other calls): reading and charting a big run takes a while and is synchronous.
      await yieldToEvents();
      const show = runShow(store.path, results);
      await yieldToEvents();
      return { show, charts: chartsFor([results]) };
    },
    { create: false },
  );
}

function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Two stored runs metric by metric with core's significance verdicts, and
 * their charts side by side: each run read once (it was read twice, by
 * `compareResults` and `exportResults`), compared as `compareResults` does.
 */
export async function compareStoredRuns(db: string | undefined, baseline: string, candidate: string): Promise<ComparePage> {
  return withStore(
    db,
    async (store) => {
      const { base, cand, comparison } = await compareLoadedRuns(store, baseline, candidate);
      return { comparison, charts: chartsFor([base, cand]) };
    },
    { create: false },
  );
}

type Store = Parameters<Parameters<typeof withStore>[1]>[0];

async function compareLoadedRuns(store: Store, baseline: string, candidate: string): Promise<{ base: RunResults; cand: RunResults; comparison: ComparisonResult }> {
  const refs = [store.resolve(baseline), store.resolve(candidate)] as const;
  const base = store.load(refs[0]);
  // The same run on both sides is read once too.
  const cand = refs[1].runPk === refs[0].runPk ? base : store.load(refs[1]);
  await yieldToEvents();
  const side = (runId: string, results: RunResults): SideSummary => ({ selection: runId, runs: [runId], samples: results.samples.length, startedAt: results.run.startedAt });
  const comparison: ComparisonResult = {
    db: store.path,
    ...compareSamples(base.samples, cand.samples, { ignore: [] }),
    baseline: side(refs[0].runId, base),
    candidate: side(refs[1].runId, cand),
    differences: runDifferences({ runs: [base.run], samples: base.samples }, { runs: [cand.run], samples: cand.samples }),
    counters: compareCounters(
      base.run.trials.map((trial) => ({ runId: base.run.runId, trial })),
      cand.run.trials.map((trial) => ({ runId: cand.run.runId, trial })),
    ),
  };
  await yieldToEvents();
  return { base, cand, comparison };
}

/**
 * Two stored runs' comparison as a file: the report `netbench compare A B
 * --out` writes — the verdict of every row first, then both runs and their
 * charts overlaid.
 */
export async function exportStoredComparison(db: string | undefined, baseline: string, candidate: string, format: 'html' | 'md'): Promise<ExportedFile> {
  return withStore(
    db,
    async (store) => {
      const { base, cand, comparison } = await compareLoadedRuns(store, baseline, candidate);
      // One section per run in the file, also when a run is compared with itself.
      const runs = base === cand ? [base] : [base, cand];
      const title = `netbench compare: ${comparison.baseline.selection} (baseline) → ${comparison.candidate.selection} (candidate)`;
      const charts = chartsFor(runs);
      const content =
        format === 'html'
          ? renderHtml(runs, charts, { title, comparison })
          : renderMarkdown(runs, charts, { title, comparison, imagePath: (chart) => svgDataUrl(renderSvg(chart, { footer: footerOf(chart, runs) })) });
      return { fileName: `compare-${comparison.baseline.selection}-${comparison.candidate.selection}.${format}`, mimeType: MIME[format], content };
    },
    { create: false },
  );
}

/**
 * Several stored runs on one set of charts (`netbench report A B C`'s
 * charts): `chartsFor` over all of them, so each metric is one chart with a
 * series per run and configuration, coloured by run. Each run read once.
 */
export async function overlayStoredRuns(db: string | undefined, runIds: readonly string[]): Promise<OverlayPage> {
  return withStore(
    db,
    async (store) => {
      const results: RunResults[] = [];
      for (const id of runIds) {
        const ref = store.resolve(id);
        if (results.some((r) => r.run.runId === ref.runId)) throw new NetbenchError(`run ${ref.runId} is named twice: overlay different runs`);
        results.push(store.load(ref));
        await yieldToEvents();
      }
      return { runs: results.map((r) => ({ runId: r.run.runId, name: r.run.name, startedAt: r.run.startedAt })), charts: chartsFor(results) };
    },
    { create: false },
  );
}

/**
 * Two label selections (`netbench compare --baseline k=v --candidate k=v`):
 * every stored sample with those labels, metric by metric with core's
 * verdicts; the charts draw each side as one series.
 */
export async function compareStoredSelections(db: string | undefined, baseline: readonly LabelPair[], candidate: readonly LabelPair[]): Promise<ComparePage> {
  const conditions = (pairs: readonly LabelPair[]): LabelCondition[] => pairs.map((p) => [p.key, p.value] as const);
  const comparison = await compareResults({
    baseline: { labels: conditions(baseline) },
    candidate: { labels: conditions(candidate) },
    ...(db !== undefined ? { db } : {}),
  });
  const runs = Math.max(comparison.baseline.runs.length, comparison.candidate.runs.length);
  if (runs > SELECTION_CHART_RUNS) {
    return {
      comparison,
      charts: [],
      chartsNote: `Charts are drawn for selections of up to ${SELECTION_CHART_RUNS} runs; this one spans ${runs}. The table above compares all of them.`,
    };
  }
  const sides = await withStore(db, (store) => [selectionResults(store, 'baseline', conditions(baseline)), selectionResults(store, 'candidate', conditions(candidate))], {
    create: false,
  });
  return { comparison, charts: chartsFor(sides) };
}

const MIME: Record<ExportFormat, string> = {
  json: 'application/json',
  csv: 'text/csv',
  html: 'text/html',
  md: 'text/markdown',
};

/** A stored run as `results.json`, a CSV of its samples, or the report (HTML/Markdown) `netbench report` writes. */
export async function exportStoredRun(db: string | undefined, runId: string, format: ExportFormat): Promise<ExportedFile> {
  const results: RunResults[] = await exportResults({ runs: [runId], ...(db !== undefined ? { db } : {}) });
  const run = results[0]!;
  const id = run.run.runId;
  const content =
    format === 'json'
      ? `${JSON.stringify(run, null, 2)}\n`
      : format === 'csv'
        ? formatCsv(run.samples)
        : format === 'html'
          ? renderHtml(results, chartsFor(results))
          : // One file from a save dialog or a download: the Markdown carries its charts as SVG data URLs
            // (with run id and date), where `netbench report --format md` writes them next to it.
            renderMarkdown(results, chartsFor(results), { imagePath: (chart) => svgDataUrl(renderSvg(chart, { footer: footerOf(chart, results) })) });
  return { fileName: `${id}.${format === 'json' ? 'results.json' : format}`, mimeType: MIME[format], content };
}

/** The spec a stored run ran, as it was written, for the wizard's editor ("Run again / edit"). */
export async function storedRunSpec(db: string | undefined, runId: string): Promise<{ text: string; name: string }> {
  return withStore(db, (store) => {
    const { run } = store.load(store.resolve(runId));
    if (!run.specText) throw new NetbenchError(`run ${run.runId} kept no spec text (imported from files, or made before specs were stored)`);
    return { text: run.specText, name: run.name };
  });
}

/**
 * The trend page: the stored metrics to pick from and, once one is picked,
 * its trend over the runs' dates — split by a label when asked (a line per
 * zone, spec, benchmark…), each line judged against its own earlier runs.
 */
export async function trendStored(db: string | undefined, arg: { metric?: string; splitBy?: string; where?: readonly LabelPair[] }): Promise<TrendPage> {
  const metrics = await withStore(db, (store) => store.metrics(), { create: false, readOnly: true });
  if (arg.metric === undefined) return { metrics };
  const where = (arg.where ?? []).map((p) => [p.key, p.value] as const);
  try {
    const result = await trendChart({ ...(db !== undefined ? { db } : {}), metric: arg.metric, where, ...(arg.splitBy ? { splitBy: arg.splitBy } : {}) });
    return { metrics, chart: result.chart, summaries: result.trends.map((t) => ({ name: t.name, summary: t.trend.summary })), refused: result.refused };
  } catch (error) {
    // A selection that is still several series, or matches nothing: said beside the form, which stays to narrow it.
    if (error instanceof NetbenchError) return { metrics, error: error.message };
    throw error;
  }
}
