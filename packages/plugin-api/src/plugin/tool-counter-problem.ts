import type { ToolCounter } from './tool.js';

/** A tool counter's name (`ToolCounter.name`): snake case, so `counters.<tool>.<name>` is a clean metric name everywhere. */
export const TOOL_COUNTER_NAME_RE = /^[a-z][a-z0-9_]{0,62}$/;

/** Why a value `ToolPlugin.counters` returned is not a counter, or `undefined` when it is one. */
export function toolCounterProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `${JSON.stringify(value)} is not a counter object`;
  const c = value as Partial<ToolCounter>;
  if (typeof c.name !== 'string' || !TOOL_COUNTER_NAME_RE.test(c.name)) return `counter name ${JSON.stringify(c.name)} is not snake case (${TOOL_COUNTER_NAME_RE.source})`;
  if (typeof c.value !== 'number' || !Number.isFinite(c.value)) return `counter ${c.name}: value ${String(c.value)} is not a finite number`;
  if (typeof c.unit !== 'string' || c.unit === '') return `counter ${c.name}: no unit`;
  if (c.role !== undefined && c.role !== 'client' && c.role !== 'server') return `counter ${c.name}: role ${JSON.stringify(c.role)} is neither client nor server`;
  return undefined;
}
