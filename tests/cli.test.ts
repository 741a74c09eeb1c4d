import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

describe('the CLI', () => {
  it('--version prints the version', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^@netbench\/cli\/\d+\.\d+\.\d+/);
  });

  it('plan --json of the whitepaper inter-zone matrix gives 72 trials and touches nothing', async () => {
    const result = await runCli(['plan', 'examples/whitepaper-inter-zone.yaml', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as { trials: unknown[]; fleet: { id: string }[] };
    expect(plan.trials).toHaveLength(72);
    expect(new Set(plan.fleet.map((h) => h.id)).size).toBe(plan.fleet.length);
  });

  it('plan of the inter-region matrix has 190 region pairs', async () => {
    const result = await runCli(['plan', 'examples/whitepaper-inter-region.yaml', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { cells: number }).cells).toBe(190);
  });

  it('plan prints the fleet and the trials as tables', async () => {
    const result = await runCli(['plan', 'examples/quickstart.yaml']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/quickstart: 2 hosts, 5 trials/);
    expect(result.stdout).toMatch(/t0003\s+netperf\s+TCP_RR/);
  });

  it('--set overrides a field', async () => {
    const result = await runCli(['plan', 'examples/quickstart.yaml', '--json', '--set', 'benchmarks.1.tests=[TCP_RR]']);
    const plan = JSON.parse(result.stdout) as { trials: { tool: string }[] };
    expect(plan.trials.filter((t) => t.tool === 'netperf')).toHaveLength(1);
  });

  it('schema prints a JSON Schema covering every installed plugin', async () => {
    const result = await runCli(['schema']);
    expect(result.code, result.stderr).toBe(0);
    const schema = JSON.stringify(JSON.parse(result.stdout));
    for (const name of ['ping', 'netperf', 'iperf3', 'local', 'json', 'csv']) expect(schema).toContain(`"${name}"`);
    expect(schema).toContain('TCP_STREAM');
  });

  it('doctor --json reports the tools with versions', async () => {
    const result = await runCli(['doctor', '--json']);
    const report = JSON.parse(result.stdout) as { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] };
    const netperf = report.checks.find((c) => c.name === 'tool netperf');
    expect(netperf?.ok).toBe(true);
    expect(netperf?.detail).toMatch(/2\.7/);
    expect(report.checks.find((c) => c.name === 'tool iperf3')?.detail).toMatch(/3\.\d+/);
    expect(result.code).toBe(report.ok ? 0 : 1);
  });

  it('cleanup with neither a run nor --all explains itself', async () => {
    const result = await runCli(['cleanup']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--all/);
  });
});
