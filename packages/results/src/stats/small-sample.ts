import type { ComparisonRow, RowHead } from './comparison-row.js';
import { verdict } from './verdict.js';
import { rankTestFloor, type WelchLogRefusal, welchLogT } from './welch.js';

/** The once-only notes about rows Mann–Whitney could not decide. */
export interface SmallSampleNotes {
  /** Rows left undecided: how many, and why (counts, smallest p, what would decide). */
  readonly tooFew: { readonly rows: number; readonly note?: string };
  /** Rows Welch's t-test on logarithms decided: how many, its assumption, and which. */
  readonly welch: { readonly rows: number; readonly note?: string };
}

/** Series names listed in the Welch note before it says "and N more". */
const NAMED_ROWS = 4;

/**
 * A single-number row whose values are too few a side for Mann–Whitney to
 * reach alpha whatever they are (3 and 3: smallest p 0.1) is decided by
 * Welch's t-test on the logarithms, which can. Not when ties rather than
 * counts keep the rank test from deciding, not with a value ≤ 0 or without
 * spread: those stay "too few repetitions", with the reason in the note.
 */
export function smallSampleRow(head: RowHead & Pick<ComparisonRow, 'mannWhitney'>, a: readonly number[], b: readonly number[], alpha: number): ComparisonRow {
  const minP = round(head.mannWhitney?.minP ?? 1);
  const cannot = `with ${a.length} and ${b.length} values Mann–Whitney cannot reach p < ${alpha} (smallest possible p ${minP})`;
  const undecided = (note: string, welchRefused?: WelchLogRefusal): ComparisonRow => ({
    ...head,
    significant: null,
    decidedBy: null,
    verdict: 'too few repetitions',
    note,
    ...(welchRefused ? { welchRefused } : {}),
  });
  if (rankTestFloor(a.length, b.length) <= alpha) return undecided(`${cannot}: too many ties`);
  const welch = welchLogT(a, b, { alpha });
  if ('refused' in welch) return undecided(`${cannot}; Welch's t-test on logarithms cannot stand in: ${REFUSALS[welch.refused]}`, welch.refused);
  const significant = welch.p < alpha;
  return {
    ...head,
    significant,
    decidedBy: 'welch-log',
    verdict: verdict(significant, head.delta, head.direction),
    welch,
    note: `${cannot}; decided by Welch's t-test on the logarithms, which assumes log-normal values: candidate/baseline ×${round(welch.ratio)}, ${Math.round(welch.confidence * 100)}% CI ×${round(welch.low)}–×${round(welch.high)}`,
  };
}

const REFUSALS: Record<WelchLogRefusal, string> = {
  'non-positive': 'a value ≤ 0 has no logarithm',
  'no spread': 'no spread within either side to estimate the noise from',
  'too few': 'fewer than 2 values a side',
};

/** Said once above the table: which rows Welch decided and on what assumption; which stayed undecided and why. */
export function smallSampleNotes(rows: readonly ComparisonRow[], alpha: number): SmallSampleNotes {
  return { tooFew: tooFewNote(rows, alpha), welch: welchNote(rows, alpha) };
}

function welchNote(rows: readonly ComparisonRow[], alpha: number): SmallSampleNotes['welch'] {
  const decided = rows.filter((r) => r.decidedBy === 'welch-log');
  if (decided.length === 0) return { rows: 0 };
  const names = [...new Set(decided.map(rowName))];
  const more = names.length > NAMED_ROWS ? ` and ${names.length - NAMED_ROWS} more` : '';
  return {
    rows: decided.length,
    note:
      `with ${countsOf(decided)} values a side Mann–Whitney cannot reach p < ${alpha} (smallest possible p ${minPOf(decided)}); ` +
      'the t-test assumes each side is log-normal (positive values, multiplicative noise); ' +
      `rows: ${names.slice(0, NAMED_ROWS).join(', ')}${more} (decided by "Welch t on logs")`,
  };
}

/** A row as the table's first columns name it: benchmark, test, metric (`iperf3 tcp Throughput`). */
const rowName = (r: ComparisonRow) =>
  [r.labels['benchmark'], r.labels['test'], r.metric]
    .filter((x) => x !== undefined && x !== '')
    .map(String)
    .join(' ');

function tooFewNote(rows: readonly ComparisonRow[], alpha: number): SmallSampleNotes['tooFew'] {
  const few = rows.filter((r) => r.verdict === 'too few repetitions');
  if (few.length === 0) return { rows: 0 };
  const why: string[] = [];
  const count = (test: (r: ComparisonRow) => boolean, text: string) => {
    const n = few.filter(test).length;
    if (n > 0) why.push(`${n} ${text}`);
  };
  count((r) => r.welchRefused === 'non-positive', `with a value ≤ 0 (no logarithm for Welch's t-test)`);
  count((r) => r.welchRefused === 'no spread', "without spread within either side (Welch's t-test has no noise to estimate)");
  count((r) => rankTestFloor(r.baseline.n, r.candidate.n) <= alpha, 'held back by ties');
  const enough = fewestDeciding(alpha);
  return {
    rows: few.length,
    note:
      `with ${countsOf(few)} values a side Mann–Whitney cannot reach p < ${alpha} (smallest possible p ${minPOf(few)})` +
      (why.length > 0 ? `; undecided: ${why.join(', ')}` : '') +
      `; ${enough} ${unitsOf(few)} a side let Mann–Whitney decide (p down to ${round(rankTestFloor(enough, enough))}), ${enough + 1} leave room (${round(rankTestFloor(enough + 1, enough + 1))})`,
  };
}

/** The fewest values a side with which Mann–Whitney can reach alpha without ties (4 at 0.05). */
export function fewestDeciding(alpha: number): number {
  let n = 2;
  // 2 / C(2n, n) falls faster than 4^-n: any alpha a person would use is reached well before 60.
  while (rankTestFloor(n, n) > alpha && n < 60) n += 1;
  return n;
}

const unitsOf = (rows: readonly ComparisonRow[]) => (rows.every((r) => r.replicates === 'repetition') ? 'repetitions' : 'runs');
const countsOf = (rows: readonly ComparisonRow[]) => [...new Set(rows.map((r) => `${r.baseline.n} and ${r.candidate.n}`))].join(', ');
const minPOf = (rows: readonly ComparisonRow[]) => round(Math.min(...rows.map((r) => r.mannWhitney?.minP ?? 1)));
const round = (x: number) => Number(x.toPrecision(3));
