import type { CounterDelta } from './counter-delta.js';
import type { SocketInfo } from './socket-info.js';

/** One host of a trial as the rules see it. */
export interface HostEvidence {
  readonly host: string;
  readonly role: 'client' | 'server';
  /** Hosts with the same machine id share CPUs (lab namespaces, containers): their CPU findings are said once. */
  readonly machine: string;
  readonly delta: CounterDelta;
  /** TCP sockets of the trial's traffic, read while it ran. */
  readonly sockets: readonly SocketInfo[];
  /** CPUs the tool was pinned to on this host, when it was. */
  readonly pinnedCpus?: readonly number[];
  /** MTU of the interface the traffic used. */
  readonly mtu?: number;
  /** Where the traffic is received: the server for forward streams, the client for reverse ones. */
  readonly receives: boolean;
  /** The host's own processes (its network namespace) with the share of a CPU each used in the trial's steady window. */
  readonly processes?: readonly ProcessShare[];
}

export interface ProcessShare {
  readonly pid: number;
  readonly comm: string;
  /** Share of one CPU: 1 is a whole CPU busy the whole window. */
  readonly share: number;
}

export interface TrialEvidence {
  readonly tool: string;
  readonly test: string;
  /**
   * A cloud's documented cap on one flow between these ends (`CloudCatalog.networkLimits`,
   * both ends on that cloud), when the trial is one flow: what a single stream can reach at most.
   */
  readonly flowCap?: { readonly cloud: string; readonly bps: number; readonly applies: string; readonly source: string };
  /** The trial's headline throughput in bit/s, when it measures one. */
  readonly throughputBps?: number;
  readonly hosts: readonly HostEvidence[];
}

/** One finding, with the threshold that fired it and the numbers behind it. */
export interface Diagnosis {
  readonly rule: string;
  readonly host?: string;
  /** One sentence a user reads after the result: "limited by server CPU 1 at 99 % (softirq 61 %)". */
  readonly summary: string;
  readonly threshold: string;
  readonly evidence: Readonly<Record<string, number | string>>;
}

export const THRESHOLDS = {
  cpuBusy: 0.95,
  steal: 0.05,
  shapedShare: 0.9,
  retransShare: 0.01,
  windowLimitedPct: 50,
  /** CPUs' worth of user and system time not the trial's hosts' own processes: other programs were busy. */
  othersBusy: 0.3,
} as const;

const pct = (share: number) => `${(share * 100).toFixed(share >= 0.995 || share < 0.1 ? 0 : 1).replace(/\.0$/, '')} %`;
const rate = (bps: number) => (bps >= 1e9 ? `${(bps / 1e9).toFixed(2)} Gbit/s` : `${(bps / 1e6).toFixed(1)} Mbit/s`);

type Rule = (trial: TrialEvidence) => Diagnosis[];

/** `server b`, or just `server` when the host is named after its role. */
const who = (h: Pick<HostEvidence, 'role' | 'host'>) => (h.host === h.role ? h.role : `${h.role} ${h.host}`);

/** Hosts that share a machine are one place for CPU findings: named together. */
function byMachine(trial: TrialEvidence): { names: string; first: HostEvidence }[] {
  const groups = new Map<string, HostEvidence[]>();
  for (const host of trial.hosts) groups.set(host.machine, [...(groups.get(host.machine) ?? []), host]);
  return [...groups.values()].map((hosts) => ({ names: hosts.map(who).join(' and '), first: hosts[0]! }));
}

/**
 * CPU time of the machine the trial's processes did not use (user + system over
 * every CPU, less the hosts' own processes'): another program's, which a CPU
 * finding could be mistaken for. Undefined when a host has no process shares.
 */
function othersOn(onMachine: readonly HostEvidence[]): number | undefined {
  if (onMachine.some((h) => h.processes === undefined)) return undefined;
  // Hosts without a namespace of their own see the same processes: count each once.
  const own = new Map(onMachine.flatMap((h) => h.processes!.map((p) => [p.pid, p.share] as const)));
  const used = onMachine[0]!.delta.cpus.reduce((sum, c) => sum + c.user + c.system, 0);
  return used - [...own.values()].reduce((a, b) => a + b, 0);
}

const cpuSaturated: Rule = (trial) =>
  byMachine(trial).flatMap(({ names, first }): Diagnosis[] => {
    // Pinned ends ran only on their CPUs: a busy CPU elsewhere is another program's (CPU shares are machine-wide).
    const onMachine = trial.hosts.filter((h) => h.machine === first.machine);
    const others = othersOn(onMachine);
    if (others !== undefined && others >= THRESHOLDS.othersBusy) {
      return [
        {
          rule: 'busy-machine',
          host: first.host,
          summary: `other programs used ${others.toFixed(2)} CPUs of the machine of ${names} while the trial ran: its CPU shares say nothing about the trial, so no CPU finding is made`,
          threshold: `user + system time not the trial's hosts' processes ≥ ${THRESHOLDS.othersBusy} CPUs`,
          evidence: { othersCpus: Number(others.toFixed(3)) },
        },
      ];
    }
    const top = onMachine.flatMap((h) => h.processes ?? []).sort((a, b) => b.share - a.share)[0];
    const pinned = onMachine.every((h) => h.pinnedCpus !== undefined) ? new Set(onMachine.flatMap((h) => h.pinnedCpus!)) : undefined;
    const hot = first.delta.cpus.filter((c) => c.busy >= THRESHOLDS.cpuBusy && (!pinned || pinned.has(c.cpu))).sort((a, b) => b.busy - a.busy);
    return hot.map((cpu) => {
      const kernel = cpu.softirq + cpu.irq;
      const kind = kernel >= cpu.busy / 2 ? "softirq (the kernel's network processing)" : cpu.user >= cpu.busy / 2 ? 'user space (the tool itself)' : 'system calls';
      return {
        rule: cpu.user >= cpu.busy / 2 ? 'tool-bound' : 'cpu-bound',
        host: first.host,
        summary: `limited by CPU ${cpu.cpu} of ${names} at ${pct(cpu.busy)}, mostly ${kind}: user ${pct(cpu.user)}, system ${pct(cpu.system)}, softirq ${pct(cpu.softirq)}${top && top.share >= 0.5 ? ` (busiest process: ${top.comm} at ${pct(top.share)} of a CPU)` : ''}`,
        threshold: `a CPU busy ≥ ${pct(THRESHOLDS.cpuBusy)} of the trial`,
        evidence: { cpu: cpu.cpu, busy: cpu.busy, user: cpu.user, system: cpu.system, softirq: cpu.softirq, irq: cpu.irq },
      };
    });
  });

const steal: Rule = (trial) =>
  byMachine(trial).flatMap(({ names, first }) => {
    const cpus = first.delta.cpus;
    const mean = cpus.length === 0 ? 0 : cpus.reduce((sum, c) => sum + c.steal, 0) / cpus.length;
    return mean >= THRESHOLDS.steal
      ? [
          {
            rule: 'steal',
            host: first.host,
            summary: `the hypervisor took ${pct(mean)} of ${names}'s CPU time (steal): a noisy neighbour or an oversubscribed host`,
            threshold: `mean steal ≥ ${pct(THRESHOLDS.steal)}`,
            evidence: { steal: mean },
          },
        ]
      : [];
  });

const shapedLink: Rule = (trial) => {
  if (trial.throughputBps === undefined) return [];
  return trial.hosts.flatMap((host) =>
    host.delta.qdiscs
      .filter((q) => q.rateBitsPerSecond !== undefined && q.overlimits > 0 && trial.throughputBps! >= THRESHOLDS.shapedShare * q.rateBitsPerSecond!)
      .map((q) => ({
        rule: 'shaped-link',
        host: host.host,
        summary: `equals the ${q.kind} rate on ${who(host)}'s ${q.dev} (${rate(q.rateBitsPerSecond!)}; measured ${pct(trial.throughputBps! / q.rateBitsPerSecond!)} of it, ${q.overlimits} packets held back)`,
        threshold: `throughput ≥ ${pct(THRESHOLDS.shapedShare)} of a shaping qdisc's rate that was over its limit`,
        evidence: { dev: q.dev, qdisc: q.kind, rate: q.rateBitsPerSecond!, throughput: trial.throughputBps!, overlimits: q.overlimits, drops: q.drops },
      })),
  );
};

const queueDrops: Rule = (trial) =>
  trial.hosts.flatMap((host) =>
    host.delta.qdiscs
      .filter((q) => q.drops > 0)
      .map((q) => ({
        rule: 'queue-drops',
        host: host.host,
        summary: `${q.drops} packets dropped by the ${q.kind} queue on ${who(host)}'s ${q.dev} (network loss, not the receiver's)`,
        threshold: 'any qdisc drop',
        evidence: { dev: q.dev, qdisc: q.kind, drops: q.drops, backlogMax: q.backlogMax },
      })),
  );

const receiveBuffer: Rule = (trial) =>
  trial.hosts.flatMap((host) => {
    const rcvbuf = host.delta.protocols.get('Udp.RcvbufErrors') ?? 0;
    const inErrors = host.delta.protocols.get('Udp.InErrors') ?? 0;
    if (rcvbuf === 0) return [];
    const received = host.delta.protocols.get('Udp.InDatagrams') ?? 0;
    return [
      {
        rule: 'receive-buffer',
        host: host.host,
        summary: `${rcvbuf} UDP datagrams dropped at ${who(host)} because its socket receive buffer was full (${pct(rcvbuf / Math.max(1, rcvbuf + received))} of those that arrived): the receiver is too slow or its buffer too small (net.core.rmem_max, the tool's -w/window), not the network`,
        threshold: 'any Udp.RcvbufErrors',
        evidence: { rcvbufErrors: rcvbuf, inErrors, inDatagrams: received },
      },
    ];
  });

const backlog: Rule = (trial) =>
  byMachine(trial).flatMap(({ names, first }) =>
    first.delta.softnet
      .filter((s) => s.dropped > 0)
      .map((s) => ({
        rule: 'backlog-drops',
        host: first.host,
        summary: `${s.dropped} packets dropped from CPU ${s.cpu}'s input backlog on ${names} (net.core.netdev_max_backlog; time squeezed ${s.timeSqueeze} times)`,
        threshold: 'any softnet drop',
        evidence: { cpu: s.cpu, dropped: s.dropped, timeSqueeze: s.timeSqueeze },
      })),
  );

const retransmits: Rule = (trial) =>
  trial.hosts.flatMap((host) => {
    const retrans = host.delta.protocols.get('Tcp.RetransSegs') ?? 0;
    const out = host.delta.protocols.get('Tcp.OutSegs') ?? 0;
    if (out === 0 || retrans / out < THRESHOLDS.retransShare) return [];
    return [
      {
        rule: 'retransmits',
        host: host.host,
        summary: `${who(host)} retransmitted ${pct(retrans / out)} of its TCP segments (${retrans} of ${out})`,
        threshold: `retransmitted ≥ ${pct(THRESHOLDS.retransShare)} of segments sent`,
        evidence: { retransSegs: retrans, outSegs: out },
      },
    ];
  });

const windowLimited: Rule = (trial) =>
  trial.hosts.flatMap((host) =>
    host.sockets.flatMap((s) => {
      const found: Diagnosis[] = [];
      if ((s.rwndLimitedPct ?? 0) >= THRESHOLDS.windowLimitedPct)
        found.push({
          rule: 'receive-window',
          host: host.host,
          summary: `the sender on ${host.host} (${s.local} → ${s.peer}) waited on the receiver's window ${s.rwndLimitedPct} % of its busy time (receive window ${s.sndWnd ?? '?'} bytes): tcp_rmem or the tool's window caps the rate`,
          threshold: `rwnd_limited ≥ ${THRESHOLDS.windowLimitedPct} %`,
          evidence: { rwndLimitedPct: s.rwndLimitedPct!, sndWnd: s.sndWnd ?? 0 },
        });
      if ((s.sndbufLimitedPct ?? 0) >= THRESHOLDS.windowLimitedPct)
        found.push({
          rule: 'send-buffer',
          host: host.host,
          summary: `the sender on ${host.host} (${s.local} → ${s.peer}) was limited by its send buffer ${s.sndbufLimitedPct} % of its busy time: tcp_wmem or the tool's buffer caps the rate`,
          threshold: `sndbuf_limited ≥ ${THRESHOLDS.windowLimitedPct} %`,
          evidence: { sndbufLimitedPct: s.sndbufLimitedPct! },
        });
      return found;
    }),
  );

const sameCpu: Rule = (trial) => {
  const [a, b] = trial.hosts;
  if (!a || !b || a.machine !== b.machine || !a.pinnedCpus || !b.pinnedCpus) return [];
  const shared = a.pinnedCpus.filter((cpu) => b.pinnedCpus!.includes(cpu));
  return shared.length > 0
    ? [
        {
          rule: 'same-cpu',
          summary: `both ends share CPU ${shared.join(', ')}: each request waits for the other end to be scheduled (latency and request rates differ several-fold from cross-CPU placement)`,
          threshold: 'client and server pinned to a common CPU of one machine',
          evidence: { cpus: shared.join(',') },
        },
      ]
    : [];
};

const mtuMismatch: Rule = (trial) => {
  const mtus = trial.hosts.filter((h) => h.mtu !== undefined);
  const distinct = new Set(mtus.map((h) => h.mtu));
  return distinct.size > 1
    ? [
        {
          rule: 'mtu-mismatch',
          summary: `the ends' MTUs differ (${mtus.map((h) => `${h.host} ${h.mtu}`).join(', ')}): larger packets are fragmented or dropped (PMTU discovery)`,
          threshold: 'different MTUs on the path interfaces',
          evidence: Object.fromEntries(mtus.map((h) => [h.host, h.mtu!])),
        },
      ]
    : [];
};

/** ENA (AWS) and NICs like it count what the cloud held back at the instance's limits. */
const allowance: Rule = (trial) =>
  trial.hosts.flatMap((host) =>
    [...(host.delta.nic ?? new Map<string, number>())]
      .filter(([name]) => /_allowance_exceeded$/.test(name))
      .map(([name, count]) => ({
        rule: 'cloud-allowance',
        host: host.host,
        summary: `the cloud held back ${who(host)}'s packets at an instance limit: ${name} +${count} (${ALLOWANCES[name] ?? 'a per-instance allowance'})`,
        threshold: 'any increase of a NIC *_allowance_exceeded counter',
        evidence: { counter: name, increase: count },
      })),
  );

const ALLOWANCES: Readonly<Record<string, string>> = {
  bw_in_allowance_exceeded: "inbound bandwidth above the instance type's",
  bw_out_allowance_exceeded: "outbound bandwidth above the instance type's",
  pps_allowance_exceeded: "packets per second above the instance's",
  conntrack_allowance_exceeded: "tracked connections above the instance's",
  linklocal_allowance_exceeded: 'packets to link-local services (DNS, metadata) above their rate',
};

/** One flow at a cloud's documented single-flow cap: the cap, not the network or the hosts, set the figure. */
const flowCap: Rule = (trial) => {
  const cap = trial.flowCap;
  if (!cap || trial.throughputBps === undefined || trial.throughputBps < THRESHOLDS.shapedShare * cap.bps) return [];
  return [
    {
      rule: 'cloud-flow-cap',
      summary: `equals ${cap.cloud}'s documented single-flow cap (${rate(cap.bps)} for ${cap.applies}; measured ${pct(trial.throughputBps / cap.bps)} of it): more streams, not a faster path, would go higher`,
      threshold: `one flow at ≥ ${pct(THRESHOLDS.shapedShare)} of the cloud's single-flow cap`,
      evidence: { cap: cap.bps, throughput: trial.throughputBps, source: cap.source },
    },
  ];
};

export const RULES: readonly Rule[] = [flowCap, cpuSaturated, steal, shapedLink, queueDrops, receiveBuffer, backlog, retransmits, windowLimited, sameCpu, mtuMismatch, allowance];

/** Every rule's findings for one trial; an empty list is an answer: no limit found. */
export function diagnose(trial: TrialEvidence): Diagnosis[] {
  return RULES.flatMap((rule) => rule(trial));
}
