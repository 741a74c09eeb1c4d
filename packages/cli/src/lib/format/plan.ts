import { hostShaping, type Plan } from '@netbench/core';
import { formatDuration } from './number.js';
import { formatTable } from './table.js';

/** `netbench plan`'s human output: the fleet, then every trial. */
export function formatPlan(plan: Plan): string {
  const fleet = formatTable(plan.fleet, [
    { header: 'host', value: (h) => h.id },
    { header: 'cloud', value: (h) => h.cloud },
    {
      header: 'config',
      value: (h) =>
        Object.entries(h.config)
          .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
          .join(' '),
    },
    // The rate a link is shaped to, in bits (tc's `mbps` would be bytes): only when some host is shaped.
    ...(plan.fleet.some((h) => hostShaping(h)) ? [{ header: 'shaping', value: (h: Plan['fleet'][number]) => hostShaping(h)?.text ?? '' }] : []),
  ]);
  const trials = formatTable(plan.trials, [
    { header: 'trial', value: (t) => t.id },
    { header: 'tool', value: (t) => t.tool },
    { header: 'test', value: (t) => t.test },
    { header: 'client → server', value: (t) => (t.flows ? `${t.flows.length} flows at once (below)` : `${t.client} → ${t.server}`) },
    {
      header: 'parameters',
      value: (t) =>
        Object.entries(t.params)
          .map(([k, v]) => `${k}=${v}`)
          .join(' '),
    },
    { header: 'seconds', value: (t) => String(t.estimatedSeconds), align: 'right' },
  ]);
  const synchronized = plan.trials.filter((t) => t.flows);
  const flows =
    synchronized.length === 0
      ? []
      : [
          '',
          formatTable(
            synchronized.flatMap((t) => (t.flows ?? []).map((flow) => ({ trial: t.id, ...flow }))),
            [
              { header: 'trial', value: (f) => f.trial },
              { header: 'flow', value: (f) => f.label },
              { header: 'test', value: (f) => f.test },
              { header: 'client → server', value: (f) => `${f.client} → ${f.server}` },
            ],
          ),
        ];
  return [
    `${plan.spec.name}: ${plan.fleet.length} hosts, ${plan.trials.length} trials in ${plan.cells} matrix cells, about ${formatDuration(plan.estimatedSeconds)} of measuring`,
    '',
    fleet,
    '',
    trials,
    ...flows,
  ].join('\n');
}
