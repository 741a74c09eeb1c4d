import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from './helpers/cli.js';
import { metric, onlyRunDir, type Results, readEvents, readResults } from './helpers/results.js';
import { removeRunHomes, runHome, type SshLab, startSshLab } from './helpers/ssh-lab.js';

// ping, netperf and iperf3 between two `cloud: static` hosts that are local-lab
// namespaces with their own sshd; the CLI runs in the lab's controller namespace.
describe('static hosts over SSH: ping, netperf, iperf3 end to end', () => {
  let lab: SshLab;
  let result: CliResult;
  let runDir: string;
  let results: Results;

  beforeAll(async () => {
    lab = await startSshLab({ controller: {}, a: { sshd: true }, b: { sshd: true } });
    const { home, runsDir } = runHome();
    result = await lab.cli(['run', 'tests/scenarios/ssh/tools/spec.yaml', '--runs-dir', runsDir, '--progress', 'plain', ...lab.sets('client', 'a'), ...lab.sets('server', 'b')], {
      env: { NETBENCH_HOME: home, SSH_AUTH_SOCK: '' },
    });
    runDir = onlyRunDir(runsDir);
    results = readResults(runDir);
  });

  afterAll(async () => {
    removeRunHomes();
    expect(await lab?.teardown()).toEqual([]);
  });

  it('succeeds with every trial', () => {
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(results.run.trials.map((t) => `${t.tool}:${t.test}:${t.status}`).sort()).toEqual([
      'iperf3:tcp:succeeded',
      'netperf:TCP_RR:succeeded',
      'netperf:TCP_STREAM:succeeded',
      'ping:icmp:succeeded',
      'ping:icmp:succeeded',
    ]);
  });

  it('measures through the lab: latency and throughput are real', () => {
    const rr = metric(results.samples, 'TCP_RR_Latency_p50', 'netperf')[0]!;
    expect(rr.value).toBeGreaterThan(1);
    expect(rr.value).toBeLessThan(5000);
    expect(metric(results.samples, 'Latency p99', 'ping')).toHaveLength(2);
    expect(metric(results.samples, 'Average Latency', 'ping')[0]!.histogram?.count).toBe(20);
    expect(metric(results.samples, 'TCP_STREAM_Throughput', 'netperf')[0]!.value).toBeGreaterThan(100);
    const iperf = results.samples.filter((s) => s.labels.tool === 'iperf3' && /throughput/i.test(s.metric));
    expect(iperf.length).toBeGreaterThan(0);
  });

  it('records the hosts as static, with zone, labels and how the host key was verified', () => {
    const client = results.run.hosts.find((h) => h.id === 'client')!;
    expect(client).toMatchObject({ cloud: 'static', zone: 'rack-a', internalIp: lab.hosts.a!.internalIp, labels: { site: 'lab', host_key_verification: 'known-hosts' } });
    expect(client.os).toMatch(/\S/);
    const sample = metric(results.samples, 'TCP_RR_Latency_p50', 'netperf')[0]!;
    expect(sample.labels).toMatchObject({ client_cloud: 'static', server_zone: 'rack-b', host_client_host_key_verification: 'known-hosts', host_client_site: 'lab' });
    expect(typeof sample.labels.netperf_version).toBe('string');
    // `nproc` over SSH, once per host at provision: the lab's machines are namespaces of this one.
    expect(sample.labels).toMatchObject({ host_client_cpu_count: String(availableParallelism()), host_server_cpu_count: String(availableParallelism()) });
  });

  it('used one SSH connection per host for everything', () => {
    expect([lab.acceptedLogins('a'), lab.acceptedLogins('b')]).toEqual([1, 1]);
    const ledger = readFileSync(join(runDir, 'ledger.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { phase: string; resource: { type: string; id: string } });
    expect(
      ledger
        .filter((e) => e.phase === 'deleted')
        .map((e) => e.resource.id)
        .sort(),
    ).toEqual(['ssh@client', 'ssh@server']);
    expect(readEvents(runDir).at(-1)).toMatchObject({ type: 'run-finished', status: 'succeeded', teardownErrors: 0 });
  });

  it('left nothing running on the hosts', () => {
    expect(lab.strayProcesses('a')).toEqual([]);
    expect(lab.strayProcesses('b')).toEqual([]);
  });
});
