import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { namespacesOf } from './helpers/leftovers.js';
import { metric, onlyRunDir, readResults } from './helpers/results.js';

// examples/interval-sweep.yaml on the lab, shortened: real ping and irtt at four probe intervals,
// the run's irtt server started in prepare and gone after teardown, and the report's sweep chart.
describe('interval sweep: ping and irtt by probe interval', () => {
  it('runs one trial per interval for each tool and draws latency by probe interval', async () => {
    const home = tempHome('netbench-e2e-interval-');
    const runs = join(home, 'runs');
    const run = await runCli(
      ['run', 'examples/interval-sweep.yaml', '--runs-dir', runs, '--progress', 'none', '--set', 'benchmarks.0.count=10', '--set', 'benchmarks.1.duration=1'],
      { env: { NETBENCH_HOME: home } },
    );
    expect(run.code, run.stderr).toBe(0);
    const results = readResults(onlyRunDir(runs));
    expect(results.run.trials.map((t) => t.status)).toEqual(Array(8).fill('succeeded'));
    const intervals = [0.002, 0.01, 0.05, 0.2];

    const irtt = metric(results.samples, 'rtt_p50', 'irtt');
    expect(irtt.map((s) => s.labels.interval)).toEqual(intervals);
    for (const sample of irtt) {
      expect(sample.value).toBeGreaterThan(0);
      // Every sample says which congestion control each host's namespace used (read back, here its default).
      expect(sample.labels.host_client_tcp_congestion_control).toMatch(/^[a-z]/);
      expect(sample.labels.irtt_version).toMatch(/^\d/);
    }
    const sent = metric(results.samples, 'packets_sent', 'irtt').map((s) => s.value);
    // 1 s at 2 ms sends about 500 packets, at 200 ms about 5.
    expect(sent[0]).toBeGreaterThan(sent[3]! * 20);
    const ping = metric(results.samples, 'Average Latency', 'ping');
    expect(ping.map((s) => s.labels.interval)).toEqual(intervals);
    expect(ping.every((s) => s.histogram?.count === 10)).toBe(true);

    // Nothing of the run left: namespaces (and the irtt server inside) are gone.
    expect(namespacesOf(results.run.runId)).toEqual([]);

    const out = join(home, 'report.html');
    const report = await runCli(['report', results.run.runId, '--runs-dir', runs, '--out', out, '--json'], { env: { NETBENCH_HOME: home } });
    expect(report.code, report.stderr).toBe(0);
    const charts = (JSON.parse(report.stdout) as { charts: { id: string; title: string }[] }).charts;
    const sweep = charts.find((c) => c.id === 'sweep-latency-by-probe-interval');
    expect(sweep?.title).toBe('Latency by probe interval (ping, irtt)');
    expect(readFileSync(out, 'utf8')).toContain('id="chart-sweep-latency-by-probe-interval"');
  });
});
