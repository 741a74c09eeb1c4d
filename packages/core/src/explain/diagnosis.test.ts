import { describe, expect, it } from 'vitest';
import type { CounterDelta } from './counter-delta.js';
import { diagnose, type HostEvidence } from './diagnosis.js';

const idleCpu = (cpu: number) => ({ cpu, busy: 0.1, user: 0.05, system: 0.03, softirq: 0.02, irq: 0, steal: 0, iowait: 0 });
const delta = (patch: Partial<CounterDelta> = {}): CounterDelta => ({
  seconds: 10,
  cpus: [idleCpu(0), idleCpu(1)],
  protocols: new Map(),
  interfaces: [],
  softnet: [],
  qdiscs: [],
  ...patch,
});
const host = (role: 'client' | 'server', patch: Partial<HostEvidence> = {}): HostEvidence => ({
  host: role === 'client' ? 'a' : 'b',
  role,
  machine: role,
  delta: delta(),
  sockets: [],
  receives: role === 'server',
  ...patch,
});
const rules = (found: { rule: string }[]) => found.map((d) => d.rule);

describe('diagnosis rules', () => {
  it('finds no limit in an idle, clean trial', () => {
    expect(diagnose({ tool: 'iperf3', test: 'tcp', throughputBps: 1e9, hosts: [host('client'), host('server')] })).toEqual([]);
  });

  it('names a saturated CPU, softirq vs user space, once for ends that share a machine', () => {
    const hot = delta({ cpus: [idleCpu(0), { cpu: 1, busy: 0.99, user: 0.2, system: 0.14, softirq: 0.6, irq: 0.05, steal: 0, iowait: 0 }] });
    const found = diagnose({ tool: 'iperf3', test: 'tcp', hosts: [host('client', { machine: 'm', delta: hot }), host('server', { machine: 'm', delta: hot })] });
    expect(rules(found)).toEqual(['cpu-bound']);
    expect(found[0]!.summary).toBe("limited by CPU 1 of client a and server b at 99 %, mostly softirq (the kernel's network processing): user 20 %, system 14 %, softirq 60 %");
    const tool = delta({ cpus: [{ cpu: 0, busy: 0.97, user: 0.9, system: 0.05, softirq: 0.02, irq: 0, steal: 0, iowait: 0 }, idleCpu(1)] });
    expect(rules(diagnose({ tool: 'iperf3', test: 'tcp', hosts: [host('client', { delta: tool }), host('server')] }))).toEqual(['tool-bound']);
  });

  it("with both ends pinned, only their CPUs count: a busy CPU elsewhere is another program's (shares are machine-wide)", () => {
    const busyOne = delta({ cpus: [idleCpu(0), { cpu: 1, busy: 0.99, user: 0.9, system: 0.05, softirq: 0.04, irq: 0, steal: 0, iowait: 0 }] });
    const pinnedTo = (cpus: number[]) =>
      diagnose({
        tool: 'netperf',
        test: 'TCP_RR',
        hosts: [host('client', { machine: 'm', delta: busyOne, pinnedCpus: cpus }), host('server', { machine: 'm', delta: busyOne, pinnedCpus: cpus })],
      });
    expect(rules(pinnedTo([0]))).toEqual(['same-cpu']);
    expect(rules(pinnedTo([1]))).toEqual(['tool-bound', 'same-cpu']);
  });

  it("a throughput at a shaping qdisc's rate that was over its limit is the shaped link; its drops are network loss", () => {
    const shaped = delta({ qdiscs: [{ dev: 'eth0', kind: 'tbf', handle: '1:', bytes: 1, packets: 1, drops: 12, overlimits: 500, backlogMax: 3000, rateBitsPerSecond: 100e6 }] });
    const found = diagnose({ tool: 'iperf3', test: 'tcp', throughputBps: 95.5e6, hosts: [host('client'), host('server', { delta: shaped })] });
    expect(rules(found)).toEqual(['shaped-link', 'queue-drops']);
    expect(found[0]!.summary).toMatch(/^equals the tbf rate on server b's eth0 \(100\.0 Mbit\/s; measured 95\.5 % of it, 500 packets held back\)$/);
    // Far below the rate: something else limits it.
    expect(rules(diagnose({ tool: 'iperf3', test: 'tcp', throughputBps: 40e6, hosts: [host('client'), host('server', { delta: shaped })] }))).toEqual(['queue-drops']);
  });

  it('tells receive-buffer loss from network loss, and counts retransmits against their threshold', () => {
    const rcvbuf = delta({
      protocols: new Map([
        ['Udp.RcvbufErrors', 4000],
        ['Udp.InErrors', 4000],
        ['Udp.InDatagrams', 6000],
      ]),
    });
    const found = diagnose({ tool: 'iperf3', test: 'udp', hosts: [host('client'), host('server', { delta: rcvbuf })] });
    expect(rules(found)).toEqual(['receive-buffer']);
    expect(found[0]!.summary).toMatch(/^4000 UDP datagrams dropped at server b because its socket receive buffer was full \(40 % of those that arrived\)/);
    const few = delta({
      protocols: new Map([
        ['Tcp.RetransSegs', 5],
        ['Tcp.OutSegs', 1000],
      ]),
    });
    const many = delta({
      protocols: new Map([
        ['Tcp.RetransSegs', 50],
        ['Tcp.OutSegs', 1000],
      ]),
    });
    expect(rules(diagnose({ tool: 'netperf', test: 'TCP_STREAM', hosts: [host('client', { delta: few }), host('server')] }))).toEqual([]);
    expect(rules(diagnose({ tool: 'netperf', test: 'TCP_STREAM', hosts: [host('client', { delta: many }), host('server')] }))).toEqual(['retransmits']);
  });

  it('names both ends on one CPU, an MTU mismatch, steal, a receive window and backlog drops', () => {
    const found = diagnose({
      tool: 'netperf',
      test: 'TCP_RR',
      hosts: [
        host('client', { machine: 'm', pinnedCpus: [0], mtu: 1500, sockets: [{ local: '10.0.0.1:5', peer: '10.0.0.2:6', rwndLimitedPct: 74.2, sndWnd: 65536 }] }),
        host('server', { machine: 'm', pinnedCpus: [0], mtu: 9000 }),
      ],
    });
    expect(rules(found)).toEqual(['receive-window', 'same-cpu', 'mtu-mismatch']);
    const stolen = delta({
      cpus: [
        { ...idleCpu(0), steal: 0.08 },
        { ...idleCpu(1), steal: 0.06 },
      ],
      softnet: [{ cpu: 1, processed: 100, dropped: 7, timeSqueeze: 3 }],
    });
    expect(rules(diagnose({ tool: 'ping', test: 'icmp', hosts: [host('client', { delta: stolen }), host('server')] }))).toEqual(['steal', 'backlog-drops']);
  });
});

describe("a cloud NIC's allowance counters", () => {
  it('names an ENA allowance that was exceeded, and says nothing for counters that did not move', async () => {
    const { parseEthtoolStats } = await import('./host-counters.js');
    // `ethtool -S eth0` of an ENA interface (its layout; the values made up).
    const before = parseEthtoolStats(
      'NIC statistics:\n     tx_timeout: 0\n     bw_in_allowance_exceeded: 0\n     bw_out_allowance_exceeded: 10\n     pps_allowance_exceeded: 0\n     queue_0_tx_cnt: 123\n',
    );
    const after = parseEthtoolStats(
      'NIC statistics:\n     tx_timeout: 0\n     bw_in_allowance_exceeded: 0\n     bw_out_allowance_exceeded: 2410\n     pps_allowance_exceeded: 0\n     queue_0_tx_cnt: 9999\n',
    );
    expect(after.get('bw_out_allowance_exceeded')).toBe(2410);
    const nic = new Map([...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const).filter(([, v]) => v > 0));
    const found = diagnose({ tool: 'iperf3', test: 'tcp', hosts: [host('client', { delta: delta({ nic }) }), host('server')] });
    expect(rules(found)).toEqual(['cloud-allowance']);
    expect(found[0]!.summary).toBe("the cloud held back client a's packets at an instance limit: bw_out_allowance_exceeded +2400 (outbound bandwidth above the instance type's)");
  });
});

describe('whose CPU time it was', () => {
  const busy = delta({
    cpus: [
      { cpu: 0, busy: 0.99, user: 0.9, system: 0.08, softirq: 0.01, irq: 0, steal: 0, iowait: 0 },
      { cpu: 1, busy: 0.99, user: 0.9, system: 0.08, softirq: 0.01, irq: 0, steal: 0, iowait: 0 },
    ],
  });
  it('a machine busy with other programs is said as such, and no CPU finding is made from it', () => {
    const quiet = [{ pid: 10, comm: 'iperf3', share: 0.2 }];
    const found = diagnose({
      tool: 'iperf3',
      test: 'tcp',
      hosts: [host('client', { machine: 'm', delta: busy, processes: quiet }), host('server', { machine: 'm', delta: busy, processes: [{ pid: 11, comm: 'iperf3', share: 0.3 }] })],
    });
    expect(rules(found)).toEqual(['busy-machine']);
    // 1.96 CPUs of user + system time, 0.5 of them the trial's own processes.
    expect(found[0]!.evidence['othersCpus']).toBeCloseTo(1.46, 2);
  });

  it("when the trial's own processes did the work, the CPU finding stands and names the busiest one", () => {
    const found = diagnose({
      tool: 'iperf3',
      test: 'tcp',
      hosts: [
        host('client', { machine: 'm', delta: busy, processes: [{ pid: 10, comm: 'iperf3', share: 0.97 }] }),
        host('server', { machine: 'm', delta: busy, processes: [{ pid: 11, comm: 'iperf3', share: 0.95 }] }),
      ],
    });
    expect(rules(found)).toEqual(['tool-bound', 'tool-bound']);
    expect(found[0]!.summary).toMatch(/\(busiest process: iperf3 at 97 % of a CPU\)$/);
  });
});

describe("a cloud's documented single-flow cap", () => {
  const cap = {
    cloud: 'aws',
    bps: 5e9,
    applies: 'one TCP or UDP 5-tuple between instances not in the same cluster placement group',
    source: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-instance-network-bandwidth.html',
  };
  it('one flow at the cap is the cap; well below it, nothing', () => {
    const at = diagnose({ tool: 'iperf3', test: 'tcp', throughputBps: 4.93e9, flowCap: cap, hosts: [host('client'), host('server')] });
    expect(rules(at)).toEqual(['cloud-flow-cap']);
    expect(at[0]!.summary).toMatch(
      /^equals aws's documented single-flow cap \(5\.00 Gbit\/s for one TCP or UDP 5-tuple between instances not in the same cluster placement group; measured 98\.6 % of it\)/,
    );
    expect(at[0]!.evidence['source']).toBe(cap.source);
    expect(rules(diagnose({ tool: 'iperf3', test: 'tcp', throughputBps: 2e9, flowCap: cap, hosts: [host('client'), host('server')] }))).toEqual([]);
  });
});
