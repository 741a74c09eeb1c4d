import { formatBits, parseRate } from '@netbench/plugin-api/cloud-kit';
import type { FleetHost, Plan, PlannedFlow, PlannedTrial } from './types.js';

/**
 * Link shaping of a fleet host, from the `link` field the local lab and
 * Docker plugins share: `rate` limits what the host sends (its egress),
 * Docker's `ingressRate` what it receives. Rates in bits per second.
 */
export interface HostShaping {
  readonly host: string;
  readonly egressBitsPerSecond?: number;
  readonly ingressBitsPerSecond?: number;
  /** `egress 100 Mbit/s (link.rate 100mbit)`: the resolved rate in bits, and what the spec said. */
  readonly text: string;
}

type Leg = Pick<PlannedFlow, 'client' | 'server' | 'traffic'>;

export function hostShaping(host: FleetHost): HostShaping | undefined {
  const link = host.config['link'];
  if (typeof link !== 'object' || link === null) return undefined;
  const { rate, ingressRate } = link as { rate?: unknown; ingressRate?: unknown };
  const egress = typeof rate === 'string' ? parseRate(rate) : undefined;
  const ingress = typeof ingressRate === 'string' ? parseRate(ingressRate) : undefined;
  if (egress === undefined && ingress === undefined) return undefined;
  const parts = [
    ...(egress !== undefined ? [`egress ${formatBits(egress)} (link.rate ${String(rate)})`] : []),
    ...(ingress !== undefined ? [`ingress ${formatBits(ingress)} (link.ingressRate ${String(ingressRate)})`] : []),
  ];
  return { host: host.id, ...(egress !== undefined ? { egressBitsPerSecond: egress } : {}), ...(ingress !== undefined ? { ingressBitsPerSecond: ingress } : {}), text: parts.join(', ') };
}

/** Every shaped host of the plan. */
export function planShaping(plan: Pick<Plan, 'fleet'>): HostShaping[] {
  return plan.fleet.map(hostShaping).filter((s): s is HostShaping => s !== undefined);
}

function legs(trial: PlannedTrial): Leg[] {
  return trial.flows ? [...trial.flows] : [trial];
}

/** The hosts a leg's bulk traffic leaves from (none for latency tests, which send little). */
function senders(leg: Leg): string[] {
  switch (leg.traffic?.direction) {
    case 'forward': return [leg.client];
    case 'reverse': return [leg.server];
    case 'both': return [leg.client, leg.server];
    default: return [];
  }
}

function receivers(leg: Leg): string[] {
  switch (leg.traffic?.direction) {
    case 'forward': return [leg.server];
    case 'reverse': return [leg.client];
    case 'both': return [leg.client, leg.server];
    default: return [];
  }
}

/**
 * A rate shapes one direction of one host. When no trial sends bulk traffic
 * that way, every throughput figure of the run is of the unshaped direction
 * (a 100 Mbit/s egress limit on the server while the client sends measured
 * 12.9 Gbit/s): say so before the run.
 */
export function shapingWarnings(plan: Pick<Plan, 'fleet' | 'trials'>): string[] {
  const all = plan.trials.flatMap(legs);
  const bulk = all.filter((leg) => leg.traffic !== undefined);
  const out: string[] = [];
  for (const shaped of planShaping(plan)) {
    const name = plan.fleet.find((h) => h.id === shaped.host)?.name ?? shaped.host;
    const measured = bulk.filter((leg) => senders(leg).includes(shaped.host)).length;
    if (shaped.egressBitsPerSecond !== undefined && measured === 0) {
      // Sender → receiver (a reverse trial's server sends), not the trial's client → server.
      const from = bulk.filter((leg) => receivers(leg).includes(shaped.host)).map((leg) => `${senders(leg).join(', ')} → ${shaped.host}`);
      const seen = from.length > 0 ? ` (the throughput trials send towards it: ${[...new Set(from)].join(', ')})` : bulk.length === 0 ? ' (no trial measures throughput)' : '';
      out.push(
        `hosts.${name}.link.rate shapes what ${shaped.host} sends (${formatBits(shaped.egressBitsPerSecond)}), but no trial sends bulk traffic from ${shaped.host}${seen}: ` +
          `the shaping is not measured. Shape the sending host's link, or measure the other way (e.g. iperf3 direction: reverse or both, netperf TCP_MAERTS)`,
      );
    }
    if (shaped.ingressBitsPerSecond !== undefined && !bulk.some((leg) => receivers(leg).includes(shaped.host))) {
      out.push(`hosts.${name}.link.ingressRate shapes what ${shaped.host} receives (${formatBits(shaped.ingressBitsPerSecond)}), but no trial sends bulk traffic to ${shaped.host}: the shaping is not measured`);
    }
  }
  return out;
}
