import type { ChartSpec } from '@netbench/results';
import { metricName } from './metric-names.js';
import { unitSymbol } from './units.js';

/** A chart's title, subtitle and metric label as people read them: metric ids and unit ids replaced by names. */
export function displayText(spec: ChartSpec): { readonly title: string; readonly subtitle: string } {
  const name = metricName(spec.metric);
  const title = spec.title.split(spec.metric).join(name);
  let subtitle = (spec.subtitle ?? '').split(spec.metric).join(name);
  const unit = valueUnit(spec);
  // Bar and sweep subtitles end in the unit (`…, transactions_per_second`); the value axis says it, in the unit it is drawn in.
  if (unit && subtitle.endsWith(`, ${unit}`)) subtitle = subtitle.slice(0, -unit.length - 2);
  else if (unit && unitSymbol(unit) !== unit) subtitle = subtitle.split(unit).join(unitSymbol(unit));
  return { title, subtitle };
}

/** An axis label: the metric's human name where the spec labels an axis with the metric id. */
export function displayLabel(label: string, spec: ChartSpec): string {
  return label === spec.metric ? metricName(label) : label;
}

function valueUnit(spec: ChartSpec): string {
  return spec.kind === 'heatmap' ? spec.value.unit : spec.kind === 'cdf' || spec.kind === 'histogram' ? spec.x.unit : spec.y.unit;
}
