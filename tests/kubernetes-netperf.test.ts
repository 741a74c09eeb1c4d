import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeKubeApi } from '../packages/plugins/kubernetes/src/test-support/fake-kube-api.js';
import { runCli, tempHome } from './helpers/cli.js';
import { metric, onlyRunDir, readResults } from './helpers/results.js';

// The five-path example (plus host network) runs end to end through the real
// CLI against the stand-in Kubernetes API server: every request body checked
// against the OpenAPI definitions, tools really run through the exec API
// (as local processes: there is no kubelet here). Shortened to 1 s trials and
// two MSS points so it stays a few seconds of measuring per path.
const PATHS = ['pod-same-node', 'service-same-node', 'pod-other-node', 'service-other-node', 'hairpin', 'host-network'];

describe('examples/kubernetes-netperf.yaml against the stand-in API server', () => {
  const api = new FakeKubeApi();
  const home = tempHome();
  const runs = join(home, 'runs');
  let kubeconfig = '';
  let spec = '';

  beforeAll(async () => {
    kubeconfig = await api.start();
    const text = readFileSync('examples/kubernetes-netperf.yaml', 'utf8')
      .split('\n')
      .filter((line) => !/mss: (352|608|864|1120),/.test(line))
      .join('\n')
      .replaceAll('duration: 10', 'duration: 1');
    spec = join(home, 'kubernetes-netperf.yaml');
    writeFileSync(spec, text);
  });
  afterAll(async () => {
    await api.stop();
  });

  it('plans the unmodified example: 6 hosts, 42 trials named by path', async () => {
    const result = await runCli(['plan', 'examples/kubernetes-netperf.yaml', '--json'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as { fleet: unknown[]; trials: { benchmarkName: string }[] };
    expect(plan.fleet).toHaveLength(6);
    expect(plan.trials).toHaveLength(42);
    expect(new Set(plan.trials.map((t) => t.benchmarkName))).toEqual(new Set(PATHS));
  });

  it('runs every path, every request valid, and leaves nothing behind', async () => {
    const result = await runCli(['run', spec, '--runs-dir', runs], { env: { NETBENCH_HOME: home, KUBECONFIG: kubeconfig } });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(api.rejected).toEqual([]);
    expect(api.unhandled).toEqual([]);
    expect(api.pods.size).toBe(0);
    expect(api.services.size).toBe(0);

    const runDir = onlyRunDir(runs);
    const { samples } = readResults(runDir);
    for (const path of PATHS) {
      for (const tool of ['iperf3', 'netperf']) {
        const throughput = metric(samples, tool === 'netperf' ? 'TCP_STREAM_Throughput' : 'Throughput', tool).filter((s) => s.labels['benchmark'] === path);
        expect(throughput.length, `${tool} on ${path}`).toBeGreaterThan(0);
        for (const s of throughput) expect(s.value).toBeGreaterThan(0);
      }
    }
    const labelsOf = (path: string) => metric(samples, 'TCP_STREAM_Throughput', 'netperf').find((s) => s.labels['benchmark'] === path)!.labels;
    expect(labelsOf('service-other-node')).toMatchObject({ host_server_address: 'cluster-ip', host_client_network: 'pod' });
    expect(labelsOf('hairpin')['host_client_pod']).toBe(labelsOf('hairpin')['host_server_pod']);
    expect(labelsOf('pod-same-node')['host_client_node']).toBe(labelsOf('pod-same-node')['host_server_node']);
    expect(labelsOf('pod-other-node')['host_client_node']).not.toBe(labelsOf('pod-other-node')['host_server_node']);
    expect(labelsOf('host-network')).toMatchObject({ host_client_network: 'host', host_server_network: 'host', host_server_address: 'node-ip' });
    expect(labelsOf('host-network')['host_server_node']).toBe(labelsOf('pod-other-node')['host_server_node']);

    // Every object is in the ledger and deleted; the exec API ran the tools.
    const ledger = readFileSync(join(runDir, 'ledger.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { phase: string; resource: { type: string } });
    const created = ledger.filter((e) => e.phase === 'created').length;
    expect(created).toBe(8); // 5 pods (worker2-vip has none), 3 Services (the hostNetwork pods have none)
    expect(ledger.filter((e) => e.phase === 'deleted').length).toBe(created);
    expect(api.execs.some((argv) => argv.includes('iperf3'))).toBe(true);
    expect(api.execs.some((argv) => argv.includes('netperf'))).toBe(true);
    expect(existsSync(join(runDir, 'results.json'))).toBe(true);
  });

  it('netbench check: pod paths against the host network, exit code from the tolerance', async () => {
    const env = { NETBENCH_HOME: home };
    const self = await runCli(['check', 'latest', '--baseline', 'host-network', '--candidate', 'host-network', '--tolerance', '0%', '--json'], { env });
    expect(self.code, self.stderr).toBe(0);
    const selfRows = (JSON.parse(self.stdout) as { rows: { deltaPct: number }[] }).rows;
    expect(selfRows).toHaveLength(3); // iperf3 at 2 MSS points, netperf TCP_STREAM
    for (const row of selfRows) expect(row.deltaPct).toBe(0);

    const pods = await runCli(['check', 'latest', '--baseline', 'host-network', '--candidate', 'pod-other-node', '--candidate', 'hairpin', '--tolerance', '10%', '--json'], {
      env,
    });
    const check = JSON.parse(pods.stdout) as { passed: boolean; rows: { candidate: string; deltaPct: number; passed: boolean }[] };
    expect(check.rows).toHaveLength(6);
    for (const row of check.rows) expect(row.passed).toBe(row.deltaPct >= -10);
    // Loopback throughput on a shared machine says nothing about pods: only the verdict's consistency is asserted.
    expect(pods.code).toBe(check.passed ? 0 : 7);

    const missing = await runCli(['check', 'latest', '--baseline', 'host-network', '--candidate', 'no-such-path'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/benchmark=no-such-path/);
  });
});
