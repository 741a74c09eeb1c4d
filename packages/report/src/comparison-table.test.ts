import type { Sample } from '@netbench/plugin-api';
import type { ComparisonResult, TrendChart } from '@netbench/results';
import { compareSamples } from '@netbench/results';
import { describe, expect, it } from 'vitest';
import { chartRows } from './chart-rows.js';
import { comparisonCells, comparisonHtml, comparisonMarkdown } from './comparison-table.js';
import { figureOf } from './figure.js';
import { renderHtml } from './render-html.js';
import { renderSvg } from './render-svg.js';

const sample = (runId: string, value: number): Sample =>
  ({
    metric: 'Throughput',
    value,
    unit: 'Mbits/sec',
    timestamp: 0,
    runId,
    trialId: 't0001',
    sampleId: `${runId}-${value}`,
    labels: { tool: 'iperf3', test: 'tcp', direction: 'forward', run_id: runId },
  }) as unknown as Sample;

/** Five runs a side, the candidate 30 % faster: Mann–Whitney decides. */
function comparison(): ComparisonResult {
  const base = [100, 101, 99, 102, 98].flatMap((v, i) => [sample(`a${i}`, v)]);
  const cand = [130, 131, 129, 132, 128].flatMap((v, i) => [sample(`b${i}`, v)]);
  const side = (runs: string[]) => ({ selection: runs.join(','), runs, samples: runs.length, startedAt: '2026-12-07T00:00:00.000Z' });
  return {
    db: ':memory:',
    ...compareSamples(base, cand),
    baseline: side(['a0', 'a1', 'a2', 'a3', 'a4']),
    candidate: side(['b0', 'b1', 'b2', 'b3', 'b4']),
    differences: [{ field: 'hosts.a.link.rate', baseline: ['100mbit'], candidate: ['200mbit'] }],
  } as unknown as ComparisonResult;
}

describe('a comparison as a report section', () => {
  it("says every row's verdict and the test that decided it, in HTML and Markdown", () => {
    const result = comparison();
    const row = result.rows.find((r) => r.metric === 'Throughput')!;
    const cells = comparisonCells(row);
    expect(cells.verdict).toBe('better');
    expect(cells.decidedBy).toMatch(/^Mann–Whitney U, p = /);
    expect(cells.configuration).toBe('direction=forward test=tcp tool=iperf3');
    expect(cells.baseline).toMatch(/^100 Mbit\/s n=5 runs$/);
    expect(cells.ratio).toBe('×1.3');
    const html = comparisonHtml(result);
    expect(html).toContain('<td class="verdict verdict-better">better <span class="muted">Mann–Whitney on 5 and 5 runs');
    expect(html).toContain('hosts.a.link.rate: 100mbit → 200mbit');
    const md = comparisonMarkdown(result, (header, rows) => [header.join('|'), ...rows.map((r) => r.join('|'))].join('\n')).join('\n');
    expect(md).toMatch(/^## Comparison/);
    expect(md).toMatch(
      /Throughput\|median\|direction=forward test=tcp tool=iperf3\|100 Mbit\/s n=5 runs\|130 Mbit\/s n=5 runs\|\+30\.0 %\|×1\.3\|better \(Mann–Whitney on 5 and 5 runs' values\)\|Mann–Whitney U/,
    );
  });

  it('comes first in a report that carries it', () => {
    const html = renderHtml([], [], { comparison: comparison(), generatedAt: new Date(0) });
    expect(html.indexOf('id="comparison"')).toBeGreaterThan(0);
    expect(html.indexOf('id="comparison"')).toBeLessThan(html.indexOf('id="runs"'));
    expect(html).toContain('<li><a href="#comparison">Comparison: the verdicts</a></li>');
    expect(renderHtml([], [])).not.toContain('id="comparison"');
  });
});

describe('a trend chart', () => {
  const at = (day: number) => Date.parse(`2026-11-0${day}T08:00:00Z`);
  const trend: TrendChart = {
    kind: 'trend',
    id: 'trend-x',
    title: 'Average Latency over time by client_zone',
    notes: [],
    runIds: ['r1', 'r2', 'r3'],
    metric: 'Average Latency',
    y: { label: 'Average Latency', unit: 'ms', scale: 'linear' },
    splitBy: 'client_zone',
    series: [
      { name: 'client_zone=a', points: [1, 2, 3].map((d) => ({ runId: `r${d}`, at: at(d), value: 1 + d / 100, n: 3, flag: null })) },
      { name: 'client_zone=b', points: [1, 2, 3].map((d) => ({ runId: `s${d}`, at: at(d), value: d === 3 ? 3 : 1, n: 3, flag: d === 3 ? ('regression' as const) : null })) },
    ],
  };

  it('draws the runs on a time axis, rings the flagged run and names it', () => {
    const option = figureOf(trend).option as unknown as {
      xAxis: { type: string };
      title: { subtext: string };
      series: { data: number[][]; markPoint?: { data: { name: string; coord: number[] }[] } }[];
    };
    expect(option.xAxis.type).toBe('time');
    expect(option.series[0]!.data[0]).toEqual([at(1), 1.01]);
    expect(option.series[0]!.markPoint).toBeUndefined();
    expect(option.series[1]!.markPoint!.data).toEqual([expect.objectContaining({ name: 'regression', coord: [at(3), 3] })]);
    expect(option.title.subtext).toContain('flagged: regression s3 (client_zone=b)');
    expect(renderSvg(trend)).toContain('regression');
    // Its data table: a row per run with its date and flag.
    expect(chartRows(trend)[6]).toEqual(['client_zone=b', 's3', '2026-11-03T08:00:00.000Z', '3', '3', 'regression']);
  });
});
