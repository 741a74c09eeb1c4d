import type { RunRecord, Scalar } from '@netbench/plugin-api';
import { ChartIds } from './chart-id.js';
import { betterOf, declaredMetrics, headlineMetric } from './metric-roles.js';
import { groupBy, isRepetitionKey, type Observation, observe } from './observations.js';
import type { ChartInput, ChartOptions, HeatmapCell, HeatmapChart } from './types.js';
import { endpointsOf } from './zones.js';

interface Placed {
  readonly row: string;
  readonly column: string;
  readonly value: number;
  /** The observation's configuration: a cell holds one configuration only (its repetitions and runs). */
  readonly configKey: string;
}

/**
 * Sending × receiving heatmaps of each tool's primary metric (PKB's
 * inter-region figure): cells from the samples' zones (or regions), else
 * from a matrix with exactly two text axes, else from the host pairs
 * (client × server, whitepaper Fig. 2). Drawn when the matrix has at least
 * two cells and two names; a cell is the mean of one configuration's
 * trial-level samples over repetitions and runs — never of several pairs
 * or parameter values: a layout that would put two configurations in one
 * cell (two host pairs in one zone pair) is not used, and trials that differ
 * in other parameters (message size) get a heatmap each.
 */
export function heatmapCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): HeatmapChart[] {
  const observations = observe(results).filter((o) => !o.perStream && wanted(o.sample.metric, options, declaredMetrics(results)));
  const charts: HeatmapChart[] = [];
  const byMetric = groupBy(observations, (o) => JSON.stringify([o.sample.metric, o.sample.unit, o.config.get('tool') ?? '']));
  for (const [family, members] of byMetric)
    for (const group of groupBy(members, (o) => JSON.stringify(restOf(o))).values()) {
      const first = group[0]!;
      const chart = zoneHeatmap(group, options) ?? cellHeatmap(group) ?? hostHeatmap(group);
      if (!chart) continue;
      // Name only what tells this heatmap from the metric's others (requestSize=1 vs 1024).
      const varying = varyingKeys(byMetric.get(family)!);
      const rest = restOf(first)
        .filter(([key]) => varying.has(key))
        .map(([key, value]) => (key === 'test' ? String(value) : `${key}=${String(value)}`));
      const tool = String(first.config.get('tool') ?? '');
      const cells = toCells(chart.placed, chart.rows, chart.columns);
      const values = cells.map((c) => c.value);
      charts.push({
        kind: 'heatmap',
        id: ids.next('heatmap', first.sample.metric, tool),
        title: `${first.sample.metric}${tool ? ` (${tool})` : ''}, ${chart.title ?? `${chart.rowLabel} → ${chart.columnLabel}`}`,
        subtitle: `${[...rest, first.sample.unit].join(', ')}; each cell the mean over repetitions and runs of one pair`,
        notes: [
          `Rows: ${chart.rowLabel}; columns: ${chart.columnLabel}.`,
          `${cells.length} of ${chart.rows.length * chart.columns.length} cells measured; empty cells were not measured.`,
        ],
        runIds: [...new Set(group.map((o) => o.run.runId))],
        metric: first.sample.metric,
        x: { label: chart.columnLabel, categories: chart.columns },
        y: { label: chart.rowLabel, categories: chart.rows },
        value: {
          label: first.sample.metric,
          unit: first.sample.unit,
          better: betterOf(first.sample.metric, declaredMetrics(results)),
          min: Math.min(...values),
          max: Math.max(...values),
        },
        cells,
      });
    }
  return charts;
}

function wanted(metric: string, options: ChartOptions, declared: RunRecord['metrics']): boolean {
  return options.metrics ? options.metrics.includes(metric) : headlineMetric(metric, declared)?.primary === true;
}

interface Layout {
  /** What the title calls the matrix (default `rows → columns`). */
  readonly title?: string;
  readonly rowLabel: string;
  readonly columnLabel: string;
  readonly rows: string[];
  readonly columns: string[];
  readonly placed: Placed[];
}

function zoneHeatmap(group: readonly Observation[], options: ChartOptions): Layout | undefined {
  const endpoints = group.map((o) => ({ o, e: endpointsOf(o.sample.labels) }));
  const zoned = endpoints.filter(({ e }) => e.sendingZone !== undefined && e.receivingZone !== undefined);
  if (zoned.length === 0) return undefined;
  const zones = new Set(zoned.flatMap(({ e }) => [e.sendingZone!, e.receivingZone!]));
  const regionOf = new Map(
    zoned.flatMap(
      ({ e }) =>
        [
          [e.sendingZone!, e.sendingRegion!],
          [e.receivingZone!, e.receivingRegion!],
        ] as const,
    ),
  );
  const regions = new Set(regionOf.values());
  const axis = options.heatmapAxis ?? 'auto';
  // The whitepaper names regions: do so when that loses nothing (one zone per region).
  const byRegion = axis === 'region' || (axis === 'auto' && regions.size === zones.size && regions.size > 1);
  const name = (zone: string) => (byRegion ? regionOf.get(zone)! : zone);
  const placed = zoned.map(({ o, e }) => ({ row: name(e.sendingZone!), column: name(e.receivingZone!), value: o.sample.value, configKey: o.configKey }));
  const kind = byRegion ? 'region' : 'zone';
  return layout(placed, `sending ${kind}`, `receiving ${kind}`);
}

/** A matrix of exactly two text axes (e.g. zone × extra_zone when hosts carry no zone labels). */
function cellHeatmap(group: readonly Observation[]): Layout | undefined {
  const axes = new Map<string, Set<Scalar>>();
  for (const o of group) {
    for (const [key, value] of Object.entries(o.trial?.cell ?? {})) {
      if (isRepetitionKey(key) || typeof value !== 'string') continue;
      let values = axes.get(key);
      if (!values) axes.set(key, (values = new Set()));
      values.add(value);
    }
  }
  const textAxes = [...axes].filter(([, values]) => values.size > 1).map(([key]) => key);
  if (textAxes.length !== 2) return undefined;
  const [rowKey, columnKey] = textAxes as [string, string];
  const placed = group
    .filter((o) => o.trial?.cell[rowKey] !== undefined && o.trial.cell[columnKey] !== undefined)
    .map((o) => ({ row: String(o.trial!.cell[rowKey]), column: String(o.trial!.cell[columnKey]), value: o.sample.value, configKey: o.configKey }));
  return layout(placed, rowKey, columnKey);
}

/**
 * Sending host × receiving host (the client, or the server for `direction:
 * reverse`) of every measured pair. Needs three hosts at least: one pair both
 * ways is two bars, not a matrix.
 */
function hostHeatmap(group: readonly Observation[]): Layout | undefined {
  const placed: Placed[] = [];
  for (const o of group) {
    const pair = o.config.get('pair');
    if (typeof pair !== 'string') continue;
    const [client, server] = pair.split(' → ') as [string, string | undefined];
    if (server === undefined) continue;
    const [row, column] = o.config.get('direction') === 'reverse' ? [server, client] : [client, server];
    placed.push({ row, column, value: o.sample.value, configKey: o.configKey });
  }
  if (new Set(placed.flatMap((p) => [p.row, p.column])).size < 3) return undefined;
  const hosts = layout(placed, 'sending host', 'receiving host');
  return hosts && { ...hosts, title: 'by host pair' };
}

/**
 * The configuration fields a heatmap does not place on its axes: every
 * field but the pair, the direction (placed by sending/receiving) and the
 * matrix's text values (zones, regions).
 */
function varyingKeys(members: readonly Observation[]): Set<string> {
  const values = new Map<string, Set<string>>();
  for (const o of members)
    for (const [key, value] of restOf(o)) {
      let set = values.get(key);
      if (!set) values.set(key, (set = new Set()));
      set.add(String(value));
    }
  const keys = new Set([...values].filter(([, set]) => set.size > 1).map(([key]) => key));
  // A field some members lack differs too.
  for (const o of members) for (const key of values.keys()) if (!o.config.has(key)) keys.add(key);
  return keys;
}

function restOf(o: Observation): [string, Scalar][] {
  return [...o.config].filter(([key, value]) => key !== 'pair' && key !== 'direction' && !(typeof value === 'string' && o.trial?.cell[key] === value));
}

function layout(placed: Placed[], rowLabel: string, columnLabel: string): Layout | undefined {
  const rows = [...new Set(placed.map((p) => p.row))].sort();
  const columns = [...new Set(placed.map((p) => p.column))].sort();
  const configs = new Map<string, string>();
  for (const p of placed) {
    const cell = `${p.row}\u0000${p.column}`;
    // Two configurations in one cell would be pooled: this layout cannot show them.
    if ((configs.get(cell) ?? p.configKey) !== p.configKey) return undefined;
    configs.set(cell, p.configKey);
  }
  const cellCount = configs.size;
  if (cellCount < 2 || (rows.length < 2 && columns.length < 2)) return undefined;
  return { rowLabel, columnLabel, rows, columns, placed };
}

function toCells(placed: readonly Placed[], rows: readonly string[], columns: readonly string[]): HeatmapCell[] {
  const rowIndex = new Map(rows.map((r, i) => [r, i]));
  const columnIndex = new Map(columns.map((c, i) => [c, i]));
  const sums = new Map<string, { x: number; y: number; sum: number; n: number }>();
  for (const p of placed) {
    const key = `${p.row}\u0000${p.column}`;
    const cell = sums.get(key) ?? { x: columnIndex.get(p.column)!, y: rowIndex.get(p.row)!, sum: 0, n: 0 };
    cell.sum += p.value;
    cell.n += 1;
    sums.set(key, cell);
  }
  return [...sums.values()].map(({ x, y, sum, n }) => ({ x, y, value: sum / n, n })).sort((a, b) => a.y - b.y || a.x - b.x);
}
