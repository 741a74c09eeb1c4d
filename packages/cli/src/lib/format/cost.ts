import type { PlanCost } from '@netbench/core';
import { formatDuration } from './number.js';
import { formatTable } from './table.js';

const usd = (n: number) => `$${n < 0.01 && n > 0 ? n.toFixed(4) : n.toFixed(2)}`;
/** Unit prices keep their own precision ($0.096/hour, $0.02/GB). */
const unitUsd = (n: number) => `$${n >= 1 ? n.toFixed(2) : String(Number(n.toPrecision(4)))}`;

/** `netbench plan`'s cost section: per cloud, what will be created and what it should cost. */
export function formatCost(cost: PlanCost): string {
  const lines: string[] = [
    `Estimated cost: ${usd(cost.usd)} (hosts assumed up ${formatDuration(cost.hostSeconds)} each; on-demand prices, egress at the tools' rates or the machines' bandwidth)`,
  ];
  for (const cloud of cost.clouds) {
    const hosts = cloud.hosts.map((h) => `${h.count} × ${[h.machineType, h.zone].filter(Boolean).join(' in ') || 'host'}`).join(', ');
    lines.push('', `${cloud.cloud}: ${hosts}`);
    if (!cloud.estimate) {
      lines.push(`  ${cloud.note ?? 'no estimate'}`);
      continue;
    }
    const { estimate } = cloud;
    lines.push(
      formatTable(estimate.items, [
        { header: 'item', value: (i) => i.description },
        { header: 'quantity', value: (i) => `${i.quantity} ${i.unit}`, align: 'right' },
        { header: 'unit price', value: (i) => unitUsd(i.unitPriceUsd), align: 'right' },
        { header: 'USD', value: (i) => usd(i.usd), align: 'right' },
      ]).replace(/^/gm, '  '),
    );
    lines.push(`  total ${usd(estimate.usd)} · price table of ${estimate.priceTableDate}`);
    for (const note of estimate.notes ?? []) lines.push(`  note: ${note}`);
  }
  return lines.join('\n');
}
