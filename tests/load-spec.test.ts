import { createPlan, loadSpec, placementFacts, placementWarnings, SpecError, staticRegistry } from '@netbench/core';
import type { AnyPlugin } from '@netbench/plugin-api';
import { irttPlugin } from '@netbench/plugin-irtt';
import { localPlugin } from '@netbench/plugin-local';
import { netperfPlugin } from '@netbench/plugin-netperf';
import { pingPlugin } from '@netbench/plugin-ping';
import { describe, expect, it } from 'vitest';

// `tool: load` specs (docs/latency-under-load.md): positions of mistakes, and
// the synchronized trial a flent test name expands into. No hosts are built.
const registry = staticRegistry([localPlugin, netperfPlugin, pingPlugin(), irttPlugin()] as AnyPlugin[]);
const HEAD = 'name: l\nhosts:\n  c: { cloud: local }\n  s: { cloud: local }\nbenchmarks:\n';

async function problems(bench: string, reg = registry): Promise<string[]> {
  try {
    await loadSpec({ text: HEAD + bench, file: 'spec.yaml' }, reg);
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as SpecError).message.split('\n');
  }
  throw new Error('the spec loaded, but it should have failed');
}

async function plan(bench: string) {
  const { spec } = await loadSpec({ text: HEAD + bench, file: 'spec.yaml' }, registry);
  return createPlan(spec, registry);
}

describe('tool: load in a spec', () => {
  it('points at a wrong test name, a bad value, an unknown key, flows and dscp outside rrul', async () => {
    expect(await problems('  - { tool: load, test: rrl, client: c, server: s }\n')).toEqual([
      'spec.yaml:6:25  benchmarks.0.test  expected one of rrul, tcp_nup, tcp_ndown, tcp_bidirectional, ping',
    ]);
    const lines = await problems('  - tool: load\n    test: tcp_nup\n    client: c\n    server: s\n    idle: -1\n    probes: [icmp, tcp]\n    dscp: true\n    stream: 4\n');
    expect(lines).toEqual([
      'spec.yaml:10:11  benchmarks.0.idle  number must be >=0',
      'spec.yaml:11:20  benchmarks.0.probes.1  expected one of icmp, udp, irtt',
      "spec.yaml:13:5  benchmarks.0.stream  unknown field 'stream' (did you mean 'streams'?)",
    ]);
    expect(await problems('  - { tool: load, test: rrul, flows: { topology: pairs, pairs: [{ client: c, server: s }] } }\n')).toContain(
      'spec.yaml:6:38  benchmarks.0.flows  a load test makes its own flows between client and server; give client and server instead of flows',
    );
    expect(await problems('  - { tool: load, test: ping, client: c, server: s, dscp: true }\n')).toEqual(['spec.yaml:6:59  benchmarks.0.dscp  dscp marks apply to rrul only']);
  });

  it('needs the netperf and ping plugins', async () => {
    const lines = await problems('  - { tool: load, test: rrul, client: c, server: s }\n', staticRegistry([localPlugin, pingPlugin()] as AnyPlugin[]));
    expect(lines).toEqual(['spec.yaml:6:13  benchmarks.0.tool  a load test runs netperf, whose tool plugin is not installed']);
  });

  it('irtt probes need the irtt plugin, named at the probe', async () => {
    const lines = await problems(
      '  - { tool: load, test: tcp_nup, client: c, server: s, probes: [icmp, irtt] }\n',
      staticRegistry([localPlugin, netperfPlugin, pingPlugin()] as AnyPlugin[]),
    );
    expect(lines).toEqual(['spec.yaml:6:71  benchmarks.0.probes.1  a load test runs irtt, whose tool plugin is not installed']);
  });

  it('an irtt probe is one irtt flow from the barrier for the whole trial, a packet every step', async () => {
    const flows = (await plan('  - { tool: load, test: tcp_nup, client: c, server: s, duration: 20, idle: 2, probes: [icmp, irtt] }\n')).trials[0]!.flows!;
    expect(flows.map((f) => [f.label, f.tool, f.test, f.startAfter ?? 0])).toEqual([
      ['up-1', 'netperf', 'TCP_STREAM', 2],
      ['up-2', 'netperf', 'TCP_STREAM', 2],
      ['up-3', 'netperf', 'TCP_STREAM', 2],
      ['up-4', 'netperf', 'TCP_STREAM', 2],
      ['icmp', 'ping', 'icmp', 0],
      ['irtt', 'irtt', 'udp_rtt', 0],
    ]);
    expect(flows[5]!.params).toMatchObject({ interval: 0.2, duration: 24, load_test: 'tcp_nup', load_step: 0.2 });
  });

  it('rrul: 4 up and 4 down netperf flows after the idle phase, ICMP and UDP probes from the barrier, all in one trial', async () => {
    const { trials } = await plan('  - { tool: load, test: rrul, client: c, server: s }\n');
    expect(trials).toHaveLength(1);
    const [trial] = trials;
    expect(trial).toMatchObject({
      tool: 'load',
      test: 'rrul',
      estimatedSeconds: 70,
      params: { duration: 60, idle: 5, step: 0.2, upload_flows: 4, download_flows: 4, probes: 'icmp+udp' },
    });
    const flows = trial!.flows!;
    expect(flows.map((f) => [f.label, f.tool, f.test, f.startAfter ?? 0])).toEqual([
      ['up-1', 'netperf', 'TCP_STREAM', 5],
      ['up-2', 'netperf', 'TCP_STREAM', 5],
      ['up-3', 'netperf', 'TCP_STREAM', 5],
      ['up-4', 'netperf', 'TCP_STREAM', 5],
      ['down-1', 'netperf', 'TCP_MAERTS', 5],
      ['down-2', 'netperf', 'TCP_MAERTS', 5],
      ['down-3', 'netperf', 'TCP_MAERTS', 5],
      ['down-4', 'netperf', 'TCP_MAERTS', 5],
      ['icmp', 'ping', 'icmp', 0],
      ['udp', 'netperf', 'UDP_RR', 0],
    ]);
    // flent's layout: bulk flows run the load's length, probes the whole 70 s, every 0.2 s (netperf reads the clock on every send: -D -0.2).
    expect(flows[0]!.params).toMatchObject({ duration: 60, demo: -0.2, streams: 1, load_test: 'rrul', load_idle: 5, load_duration: 60, load_step: 0.2, load_flows: 8 });
    expect(flows[8]!.params).toMatchObject({ count: 350, interval: 0.2, direction: 'forward' });
    expect(flows[9]!.params).toMatchObject({ duration: 70, demo: -0.2 });
  });

  it('tcp_nup, tcp_ndown, tcp_bidirectional and ping hold the flows their names say; dscp marks rrul flows as flent does', async () => {
    const shape = async (bench: string) => (await plan(bench)).trials[0]!.flows!.map((f) => f.label);
    expect(await shape('  - { tool: load, test: tcp_nup, client: c, server: s, streams: 2 }\n')).toEqual(['up-1', 'up-2', 'icmp']);
    expect(await shape('  - { tool: load, test: tcp_ndown, client: c, server: s }\n')).toEqual(['down-1', 'down-2', 'down-3', 'down-4', 'icmp']);
    expect(await shape('  - { tool: load, test: tcp_bidirectional, client: c, server: s }\n')).toEqual(['up-1', 'down-1', 'icmp']);
    expect(await shape('  - { tool: load, test: ping, client: c, server: s, probes: [icmp, udp] }\n')).toEqual(['icmp', 'udp']);
    const marked = (await plan('  - { tool: load, test: rrul, client: c, server: s, dscp: true }\n')).trials[0]!.flows!;
    expect(marked.slice(0, 4).map((f) => [f.label, f.params.tos])).toEqual([
      ['up-1-BE', '0x00'],
      ['up-2-BK', '0x20'],
      ['up-3-CS5', '0xa0'],
      ['up-4-EF', '0xb8'],
    ]);
  });

  it('cpus pins every flow: netperf and irtt at both ends, ping at its client; the request is on the trial and every flow', async () => {
    const { trials, fleet } = await plan('  - { tool: load, test: tcp_nup, client: c, server: s, streams: 2, probes: [icmp, udp, irtt], cpus: { client: 0, server: 1 } }\n');
    const [trial] = trials;
    expect(trial!.params).toMatchObject({ cpu_client: 0, cpu_server: 1 });
    expect(trial!.flows!.map((f) => [f.label, f.params.cpu_client, f.params.cpu_server])).toEqual([
      ['up-1', 0, 1],
      ['up-2', 0, 1],
      ['icmp', 0, undefined],
      ['udp', 0, 1],
      ['irtt', 0, 1],
    ]);
    // Pinned at both ends (ping needs its client only): no placement warning on a 2-CPU machine.
    expect(placementWarnings({ fleet, trials }, 2, await placementFacts({ fleet, trials }, registry))).toEqual([]);
    // Only the client pinned: the flows with a server process are still unpinned there, and the warning points at the load block.
    const half = await plan('  - { tool: load, test: tcp_nup, client: c, server: s, streams: 2, cpus: { client: 0 } }\n');
    expect(placementWarnings(half, 2, await placementFacts(half, registry))[0]).toMatch(
      /^2 netperf trials and flows run both ends .*\(load \(every flow of the test\): `cpus: \{ client: 0, server: 1 \}`\)/,
    );
  });

  it('points at a bad CPU in the load block', async () => {
    expect(await problems('  - { tool: load, test: rrul, client: c, server: s, cpus: { client: -1, srv: 1 } }\n')).toEqual([
      'spec.yaml:6:69  benchmarks.0.cpus.client  number must be >=0',
      "spec.yaml:6:73  benchmarks.0.cpus.srv  unknown field 'srv'",
    ]);
  });
});
