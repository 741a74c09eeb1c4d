import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, readResults } from './helpers/results.js';

// netperf TCP_RR between two lab namespaces, both ends pinned to one CPU and
// then to two different ones (netperf -T): every sample records the
// requested CPUs, the affinity read back from /proc while the processes ran,
// and the host's CPU count. The rates are printed, not asserted: load varies.
const SPEC = `name: cpu-placement
hosts:
  client: { cloud: local }
  server: { cloud: local }
benchmarks:
  - { tool: netperf, name: same-cpu, client: client, server: server, tests: [TCP_RR], duration: 2, cpus: { client: 0, server: 0 } }
  - { tool: netperf, name: different-cpus, client: client, server: server, tests: [TCP_RR], duration: 2, cpus: { client: 0, server: 1 } }
  - { tool: iperf3, client: client, server: server, protocol: tcp, duration: 1, cpus: { client: 1, server: 0 } }
  - { tool: iperf, client: client, server: server, protocol: tcp, duration: 1, cpus: { client: 0, server: 1 } }
  - { tool: ping, client: client, server: server, count: 10, interval: 0.05, direction: forward, cpus: { client: 1 } }
`;

describe.runIf(availableParallelism() >= 2)('CPU placement on the local lab', () => {
  it('pins netperf, iperf3, iperf and ping ends and records where each ran', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nbt-cpu-placement-'));
    const file = join(dir, 'cpu.yaml');
    writeFileSync(file, SPEC);
    const home = tempHome('nbt-cpu-run-');
    const result = await runCli(['run', file, '--runs-dir', join(home, 'runs'), '--progress', 'plain'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    const { samples } = readResults(onlyRunDir(join(home, 'runs')));
    const rate = (benchmark: string) => samples.find((s) => s.metric === 'TCP_RR_Transaction_Rate' && s.labels.benchmark === benchmark)!;
    const same = rate('same-cpu');
    const different = rate('different-cpus');
    const cpus = String(availableParallelism());
    expect(same.labels).toMatchObject({
      cpu_client: 0,
      cpu_server: 0,
      cpu_client_affinity: '0',
      cpu_server_affinity: '0',
      host_client_cpu_count: cpus,
      host_server_cpu_count: cpus,
    });
    expect(different.labels).toMatchObject({ cpu_client: 0, cpu_server: 1, cpu_client_affinity: '0', cpu_server_affinity: '1' });
    const iperf = samples.find((s) => s.labels.tool === 'iperf3' && s.labels.cpu_client_affinity !== undefined)!;
    expect(iperf.labels).toMatchObject({ cpu_client: 1, cpu_server: 0, cpu_client_affinity: '1', cpu_server_affinity: '0' });
    // iperf 2 (taskset -c on both ends) and ping (the pinging process only: no server process).
    const iperf2 = samples.find((s) => s.labels.tool === 'iperf' && s.labels.cpu_client_affinity !== undefined)!;
    expect(iperf2.labels).toMatchObject({ cpu_client: 0, cpu_server: 1, cpu_client_affinity: '0', cpu_server_affinity: '1' });
    const ping = samples.find((s) => s.labels.tool === 'ping' && s.labels.cpu_client_affinity !== undefined)!;
    expect(ping.labels).toMatchObject({ cpu_client: 1, cpu_client_affinity: '1' });
    expect(ping.labels).not.toHaveProperty('cpu_server');
    console.log(`TCP_RR same CPU: ${same.value} tx/s; different CPUs: ${different.value} tx/s`);
  });

  it("pins every flow of a load test (netperf -T, irtt and ping under taskset) and records where each end ran on each flow's samples", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nbt-cpu-load-'));
    const file = join(dir, 'load.yaml');
    writeFileSync(
      file,
      `name: cpu-load
hosts:
  client: { cloud: local }
  server: { cloud: local }
benchmarks:
  - { tool: load, test: tcp_nup, client: client, server: server, streams: 2, duration: 2, idle: 1, probes: [icmp, udp, irtt], cpus: { client: 0, server: 1 } }
`,
    );
    const home = tempHome('nbt-cpu-load-run-');
    const result = await runCli(['run', file, '--runs-dir', join(home, 'runs'), '--progress', 'plain'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    // Every flow is pinned at both ends (ping at its client): nothing to warn about.
    expect(result.stderr).not.toMatch(/without pinning/);
    const { samples } = readResults(onlyRunDir(join(home, 'runs')));
    const placed = (flow: string) => samples.find((s) => s.labels.flow === flow && s.labels.cpu_client_affinity !== undefined);
    for (const flow of ['up-1', 'up-2', 'udp', 'irtt']) {
      expect(placed(flow)?.labels, flow).toMatchObject({ cpu_client: 0, cpu_server: 1, cpu_client_affinity: '0', cpu_server_affinity: '1' });
    }
    expect(placed('icmp')?.labels).toMatchObject({ cpu_client: 0, cpu_client_affinity: '0' });
    expect(placed('icmp')?.labels).not.toHaveProperty('cpu_server');
    // The summary carries the request (it is part of the series key).
    const summary = samples.find((s) => s.labels.flow === 'summary' && s.metric === 'latency_loaded_p50');
    expect(summary?.labels).toMatchObject({ cpu_client: 0, cpu_server: 1 });
  });

  it('plan warns when both ends share this small machine unpinned', async () => {
    // The quickstart without its pinning (the example itself is pinned and warns about nothing).
    const dir = mkdtempSync(join(tmpdir(), 'netbench-unpinned-'));
    writeFileSync(
      join(dir, 'unpinned.yaml'),
      `name: unpinned
hosts:
  client: { cloud: local }
  server: { cloud: local }
benchmarks:
  - { tool: ping, client: client, server: server, count: 200, interval: 0.01 }
  - { tool: netperf, client: client, server: server, tests: [TCP_RR, TCP_STREAM], duration: 5 }
  - { tool: iperf3, client: client, server: server, protocol: tcp, streams: 2, duration: 5 }
`,
    );
    const result = await runCli(['plan', join(dir, 'unpinned.yaml')]);
    expect(result.code, result.stderr).toBe(0);
    if (availableParallelism() <= 4) expect(result.stderr).toMatch(/warning: \d+ ping, netperf, iperf3 trials run both ends on this machine's \d CPUs? without pinning/);
    else expect(result.stderr).not.toMatch(/without pinning/);
  });
});
