import type { Labels, Scalar } from './types.js';

/** A trial's parameters as sample labels: the ones left undefined are no labels. */
export function paramLabels(params: Readonly<Record<string, Scalar | undefined>>): Labels {
  const labels: Labels = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined) labels[key] = value;
  return labels;
}
