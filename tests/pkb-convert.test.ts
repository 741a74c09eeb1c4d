import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlan, createRegistry, loadSpec, type Plan } from '@netbench/core';
import { describe, expect, test } from 'vitest';
import { repoRoot, runCli } from './helpers/cli.js';
import { FIXTURE_DIR, FIXTURES } from './helpers/pkb-expected.js';

describe('netbench convert', () => {
  const registry = createRegistry({ searchDirs: [join(repoRoot, 'packages/cli')], userPlugins: false });
  const strip = (plan: Plan) => ({
    trials: plan.trials.map(({ tool, test, params, client, server, ip, cell }) => ({ tool, test, params, client, server, ip, cell })),
    fleet: plan.fleet,
    cells: plan.cells,
  });

  test.each(Object.keys(FIXTURES))('%s: the native spec plans exactly as the PKB config', async (file) => {
    const { spec } = await loadSpec({ file: join(FIXTURE_DIR, file) }, registry);
    const native = spec.source?.text ?? '';
    expect(native).toMatch(/^# netbench spec translated from the PerfKit Benchmarker config/);
    const again = await loadSpec({ text: native, file: 'converted.yaml' }, registry);
    expect(strip(await createPlan(again.spec, registry))).toEqual(strip(await createPlan(spec, registry)));
  });

  test('prints YAML by default and the document with --json', async () => {
    const yaml = await runCli(['convert', join(FIXTURE_DIR, 'multi_tier.yaml')]);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stdout).toMatch(/^ {2}vm_2: \{ cloud: gcp, machineType: n1-standard-16, zone: us-central1-a, networkTier: premium \}$/m);
    expect(yaml.stdout).toMatch(/# PKB iperf: vm_2 sends to vm_1, external address/);
    const json = await runCli(['convert', join(FIXTURE_DIR, 'multi_tier.yaml'), '--json']);
    const body = JSON.parse(json.stdout) as { spec: { benchmarks: { client: string; server: string; ip: string }[] }; warnings: string[] };
    expect(body.spec.benchmarks.map((b) => `${b.client}>${b.server}:${b.ip}`)).toEqual(['vm_1>vm_2:external', 'vm_2>vm_1:external']);
  });

  test('vpn_custom_cidr converts without warnings into two GCP networks joined by a Classic Cloud VPN, and plan shows its resources and cost', async () => {
    const json = await runCli(['convert', join(FIXTURE_DIR, 'vpn_custom_cidr.yaml'), '--json']);
    expect(json.code, json.stderr).toBe(0);
    const body = JSON.parse(json.stdout) as { spec: { hosts: Record<string, Record<string, unknown>> }; warnings: string[] };
    expect(body.warnings).toEqual([]);
    const vpn = { type: 'classic', routing: 'static', gateways: 1, tunnels: 2, ikeVersion: 2 };
    expect(body.spec.hosts['vm_1']).toMatchObject({ cloud: 'gcp', cidr: '10.0.1.0/24', vpcGroup: 'vm-1', vpn });
    expect(body.spec.hosts['vm_2']).toMatchObject({ cloud: 'gcp', cidr: '192.168.1.0/24', vpcGroup: 'vm-2', vpn });

    const dir = mkdtempSync(join(tmpdir(), 'nbt-vpn-convert-'));
    try {
      const yaml = await runCli(['convert', join(FIXTURE_DIR, 'vpn_custom_cidr.yaml')]);
      writeFileSync(join(dir, 'vpn.yaml'), yaml.stdout);
      const plan = await runCli(['plan', join(dir, 'vpn.yaml')]);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toMatch(/Cloud VPN tunnels \(4: 2 per gateway pair each way, 1 gateway\(s\) per network\) +[\d.]+ tunnel-hour +\$0\.05/);
      expect(plan.stdout).toMatch(/Cloud VPN gateway addresses \(2\) +[\d.]+ address-hour/);
      expect(plan.stdout).toContain(
        'Cloud VPN (classic, static routing, IKEv2) between vm-1 and vm-2: 2 external addresses, 2 target VPN gateways, 6 forwarding rules (ESP, UDP 500, UDP 4500), 4 VPN tunnels, 4 static routes',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a netbench spec is not converted', async () => {
    const result = await runCli(['convert', 'examples/quickstart.yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not a PerfKit Benchmarker config.*already a netbench spec/);
  });
});

describe('broken PKB configs are refused at their own lines (exit 2)', () => {
  const cases: Record<string, RegExp[]> = {
    'bad-filter.yaml': [/bad-filter\.yaml:4:14  netperf\.flag_matrix_filters\.fmatrix  cannot translate this filter to CEL at character 1: function '__import__' is not supported/],
    'undefined-matrix.yaml': [/undefined-matrix\.yaml:2:16  netperf\.flag_matrix  'fmatrx' is not defined in flag_matrix_defs \(defined: fmatrix\)/],
    'unsupported.yaml': [
      /unsupported\.yaml:1:1  fio  PKB benchmark 'fio' is not one netbench translates/,
      /unsupported\.yaml:7:14  ping\.vm_groups\.vm_1\.cloud  cloud 'Rackspace' has no netbench plugin/,
    ],
    // Plugins' objections to translated fields, placed at the flag that set them.
    'bad-machine-type.yaml': [
      /bad-machine-type\.yaml:3:19  iperf\.flags\.machine_type  .*\(netbench hosts\.vm_1\.machineType\)/,
      /bad-machine-type\.yaml:4:33  iperf\.flags\.iperf_sending_thread_count  .*\(netbench benchmarks\.0\.streams\)/,
    ],
  };
  test.each(Object.entries(cases))('%s', async (file, messages) => {
    const result = await runCli(['validate', join(FIXTURE_DIR, 'broken', file)]);
    expect(result.code, result.stdout).toBe(2);
    for (const message of messages) expect(result.stderr).toMatch(message);
    // The Python filter was refused, never evaluated.
    if (file === 'bad-filter.yaml') expect(existsSync('/tmp/pwned')).toBe(false);
  });
});
