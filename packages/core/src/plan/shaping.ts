import type { ShapedRate } from '@netbench/plugin-api';
import { formatBits } from '@netbench/plugin-api/cloud-kit';
import type { FleetHost, Plan, PlannedFlow, PlannedTrial } from './types.js';

/**
 * Link shaping of a fleet host, as its cloud declared it
 * (`CloudPlugin.linkShaping`, kept as `FleetHost.shaping`): what the host
 * sends (egress) and receives (ingress) is limited to. Rates in bits per second.
 */
export interface HostShaping {
  readonly host: string;
  readonly egressBitsPerSecond?: number;
  readonly ingressBitsPerSecond?: number;
  /** `egress 100 Mbit/s (link.rate 100mbit)`: the resolved rate in bits, and what the spec said. */
  readonly text: string;
}

type Leg = Pick<PlannedFlow, 'client' | 'server' | 'traffic'>;

const said = (way: string, rate: ShapedRate) => `${way} ${formatBits(rate.bitsPerSecond)} (${rate.field} ${rate.written})`;

export function hostShaping(host: Pick<FleetHost, 'id' | 'shaping'>): HostShaping | undefined {
  const { egress, ingress } = host.shaping ?? {};
  if (egress === undefined && ingress === undefined) return undefined;
  const parts = [...(egress ? [said('egress', egress)] : []), ...(ingress ? [said('ingress', ingress)] : [])];
  return {
    host: host.id,
    ...(egress ? { egressBitsPerSecond: egress.bitsPerSecond } : {}),
    ...(ingress ? { ingressBitsPerSecond: ingress.bitsPerSecond } : {}),
    text: parts.join(', '),
  };
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
    case 'forward':
      return [leg.client];
    case 'reverse':
      return [leg.server];
    case 'both':
      return [leg.client, leg.server];
    default:
      return [];
  }
}

function receivers(leg: Leg): string[] {
  switch (leg.traffic?.direction) {
    case 'forward':
      return [leg.server];
    case 'reverse':
      return [leg.client];
    case 'both':
      return [leg.client, leg.server];
    default:
      return [];
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
  for (const host of plan.fleet) {
    const { egress, ingress } = host.shaping ?? {};
    const measured = bulk.filter((leg) => senders(leg).includes(host.id)).length;
    if (egress !== undefined && measured === 0) {
      // Sender → receiver (a reverse trial's server sends), not the trial's client → server.
      const from = bulk.filter((leg) => receivers(leg).includes(host.id)).map((leg) => `${senders(leg).join(', ')} → ${host.id}`);
      const seen = from.length > 0 ? ` (the throughput trials send towards it: ${[...new Set(from)].join(', ')})` : bulk.length === 0 ? ' (no trial measures throughput)' : '';
      out.push(
        `hosts.${host.name}.${egress.field} shapes what ${host.id} sends (${formatBits(egress.bitsPerSecond)}), but no trial sends bulk traffic from ${host.id}${seen}: ` +
          `the shaping is not measured. Shape the sending host's link, or measure the other way (e.g. iperf3 direction: reverse or both, netperf TCP_MAERTS)`,
      );
    }
    if (ingress !== undefined && !bulk.some((leg) => receivers(leg).includes(host.id))) {
      out.push(
        `hosts.${host.name}.${ingress.field} shapes what ${host.id} receives (${formatBits(ingress.bitsPerSecond)}), but no trial sends bulk traffic to ${host.id}: the shaping is not measured`,
      );
    }
  }
  return out;
}
