// What limited each trial (docs/explain.md), made happen on the local lab
// and read back as the diagnosis: each rule's lab case in one run
// (tests/scenarios/explain/explain-lab.yaml), then the same spec with
// counters off, which stores no counters and prints no diagnosis.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, readResults } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/explain/explain-lab.yaml');

describe('the diagnosis of each lab case', () => {
  const home = tempHome('netbench-e2e-explain-');

  it('a tbf link, one shared CPU, a UDP flood past the receive buffer, a tiny TCP window and an MTU mismatch are each named, with evidence', async () => {
    const runs = join(home, 'runs');
    const result = await runCli(['run', spec, '--runs-dir', runs, '--progress', 'plain'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    const { run } = readResults(onlyRunDir(runs));
    const found = (name: string) => {
      const trial = run.trials.find((t) => t.benchmarkName === name)!;
      expect(trial.status, trial.error).toBe('succeeded');
      expect(trial.explain, name).toBeDefined();
      return trial.explain!;
    };
    const rule = (name: string, id: string) => found(name).diagnoses.find((d) => d.rule === id);

    const shaped = rule('shaped', 'shaped-link');
    expect(shaped, JSON.stringify(found('shaped').diagnoses)).toBeDefined();
    expect(shaped!).toMatchObject({ host: 'shaped', evidence: { qdisc: 'tbf', rate: 50e6 } });
    expect(Number(shaped!.evidence['throughput'])).toBeLessThanOrEqual(50e6);

    expect(rule('same-cpu', 'same-cpu')).toMatchObject({ evidence: { cpus: '0' } });
    // Pinned apart, the same tool is not told it shares a CPU.
    expect(rule('udp-flood', 'same-cpu')).toBeUndefined();

    const flood = rule('udp-flood', 'receive-buffer');
    expect(flood, JSON.stringify(found('udp-flood').diagnoses)).toMatchObject({ host: 'server' });
    expect(Number(flood!.evidence['rcvbufErrors'])).toBeGreaterThan(0);

    const window = rule('tiny-window', 'receive-window');
    expect(window, JSON.stringify(found('tiny-window'))).toMatchObject({ host: 'client' });
    expect(Number(window!.evidence['rwndLimitedPct'])).toBeGreaterThanOrEqual(50);

    const mtu = rule('mtu', 'mtu-mismatch');
    expect(mtu, JSON.stringify(found('mtu'))).toMatchObject({ evidence: { client: 1500, small: 1400 } });
    expect(rule('shaped', 'mtu-mismatch')).toBeUndefined();

    // Every end's counters are stored with the trial: CPU shares, protocol increments, qdiscs.
    const hosts = found('shaped').hosts as unknown as readonly { host: string; cpus: unknown[]; qdiscs: { kind: string }[] }[];
    expect(hosts.map((h) => h.host).sort()).toEqual(['client', 'shaped']);
    expect(hosts.find((h) => h.host === 'shaped')!.qdiscs.map((q) => q.kind)).toContain('tbf');

    // The run's summary and `results show` say it per trial.
    expect(result.stdout).toMatch(/what limited each trial/);
    expect(result.stdout).toMatch(/t0001 {2}equals the tbf rate on server shaped's eth0 \(50\.0 Mbit\/s/);
    const show = await runCli(['results', 'show', 'latest'], { env: { NETBENCH_HOME: home } });
    expect(show.stdout).toMatch(/t0001 {2}equals the tbf rate/);
    expect(show.stdout).toMatch(/receive buffer was full/);
  });

  it('options.counters: false reads nothing and says nothing', async () => {
    const runs = join(home, 'runs-off');
    const result = await runCli(
      ['run', spec, '--runs-dir', runs, '--set', 'options.counters=false', '--set', 'benchmarks.0.duration=1', '--set', 'benchmarks.3.duration=1', '--set', 'benchmarks.4.count=5'],
      { env: { NETBENCH_HOME: home } },
    );
    expect(result.code, result.stderr).toBe(0);
    const { run } = readResults(onlyRunDir(runs));
    expect(run.trials.every((t) => t.explain === undefined)).toBe(true);
    expect(result.stdout).not.toMatch(/what limited each trial/);
  });
});
