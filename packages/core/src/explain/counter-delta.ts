import type { HostCounters } from './host-counters.js';

/** One CPU over an interval: the share of its time in each state, 0–1. */
export interface CpuShare {
  readonly cpu: number;
  readonly busy: number;
  readonly user: number;
  readonly system: number;
  readonly softirq: number;
  readonly irq: number;
  readonly steal: number;
  readonly iowait: number;
}

/** What changed on one host between two reads. */
export interface CounterDelta {
  readonly seconds: number;
  readonly cpus: readonly CpuShare[];
  /** Increments of `Proto.Name` counters (only those that changed). */
  readonly protocols: ReadonlyMap<string, number>;
  readonly interfaces: readonly {
    readonly iface: string;
    readonly rxBytes: number;
    readonly txBytes: number;
    readonly rxPackets: number;
    readonly txPackets: number;
    readonly rxDrops: number;
    readonly txDrops: number;
    readonly rxErrors: number;
    readonly txErrors: number;
  }[];
  readonly softnet: readonly { readonly cpu: number; readonly processed: number; readonly dropped: number; readonly timeSqueeze: number }[];
  readonly qdiscs: readonly {
    readonly dev: string;
    readonly kind: string;
    readonly handle: string;
    readonly bytes: number;
    readonly packets: number;
    readonly drops: number;
    readonly overlimits: number;
    readonly backlogMax: number;
    readonly rateBitsPerSecond?: number;
  }[];
  /** Increments of the NIC's `ethtool -S` counters that changed (absent when the NIC has none). */
  readonly nic?: ReadonlyMap<string, number>;
}

// A counter that went down was reset (a namespace made again, a wrap): its increment is unknown, not negative.
const inc = (after: number, before: number | undefined) => (before === undefined || after < before ? 0 : after - before);

export function counterDelta(before: HostCounters, after: HostCounters): CounterDelta {
  const cpus = after.cpus.flatMap((a) => {
    const b = before.cpus.find((c) => c.cpu === a.cpu);
    if (!b) return [];
    const d = {
      user: inc(a.user + a.nice, b.user + b.nice),
      system: inc(a.system, b.system),
      idle: inc(a.idle, b.idle),
      iowait: inc(a.iowait, b.iowait),
      irq: inc(a.irq, b.irq),
      softirq: inc(a.softirq, b.softirq),
      steal: inc(a.steal, b.steal),
    };
    const total = d.user + d.system + d.idle + d.iowait + d.irq + d.softirq + d.steal;
    if (total === 0) return [];
    const share = (n: number) => n / total;
    return [
      {
        cpu: a.cpu,
        busy: share(total - d.idle - d.iowait),
        user: share(d.user),
        system: share(d.system),
        softirq: share(d.softirq),
        irq: share(d.irq),
        steal: share(d.steal),
        iowait: share(d.iowait),
      },
    ];
  });
  const protocols = new Map<string, number>();
  for (const [name, value] of after.protocols) {
    const increment = inc(value, before.protocols.get(name));
    if (increment > 0) protocols.set(name, increment);
  }
  const interfaces = after.interfaces.flatMap((a) => {
    const b = before.interfaces.find((i) => i.iface === a.iface);
    return b
      ? [
          {
            iface: a.iface,
            rxBytes: inc(a.rxBytes, b.rxBytes),
            txBytes: inc(a.txBytes, b.txBytes),
            rxPackets: inc(a.rxPackets, b.rxPackets),
            txPackets: inc(a.txPackets, b.txPackets),
            rxDrops: inc(a.rxDrops, b.rxDrops),
            txDrops: inc(a.txDrops, b.txDrops),
            rxErrors: inc(a.rxErrors, b.rxErrors),
            txErrors: inc(a.txErrors, b.txErrors),
          },
        ]
      : [];
  });
  const softnet = after.softnet.flatMap((a) => {
    const b = before.softnet.find((s) => s.cpu === a.cpu);
    return b ? [{ cpu: a.cpu, processed: inc(a.processed, b.processed), dropped: inc(a.dropped, b.dropped), timeSqueeze: inc(a.timeSqueeze, b.timeSqueeze) }] : [];
  });
  const qdiscs = after.qdiscs.flatMap((a) => {
    const b = before.qdiscs.find((q) => q.dev === a.dev && q.handle === a.handle && q.kind === a.kind);
    return b
      ? [
          {
            dev: a.dev,
            kind: a.kind,
            handle: a.handle,
            bytes: inc(a.bytes, b.bytes),
            packets: inc(a.packets, b.packets),
            drops: inc(a.drops, b.drops),
            overlimits: inc(a.overlimits, b.overlimits),
            backlogMax: Math.max(a.backlog, b.backlog),
            ...(a.rateBitsPerSecond !== undefined ? { rateBitsPerSecond: a.rateBitsPerSecond } : {}),
          },
        ]
      : [];
  });
  const nic = new Map<string, number>();
  for (const [name, value] of after.nic ?? []) {
    const increment = inc(value, before.nic?.get(name));
    if (increment > 0) nic.set(name, increment);
  }
  return { seconds: Math.max(0, (after.at - before.at) / 1000), cpus, protocols, interfaces, softnet, qdiscs, ...(nic.size > 0 ? { nic } : {}) };
}
