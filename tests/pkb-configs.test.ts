import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { type CliResult, runCli } from './helpers/cli.js';
import { FIXTURE_DIR, FIXTURES, type PlanJson, pool, shapeOf } from './helpers/pkb-expected.js';

// PKB configs plan, through the built CLI, to the trials PerfKit runs
// (expectations and how PKB counts: helpers/pkb-expected.ts). Also:
// pkb-convert.test.ts (native specs, broken configs), pkb-run.test.ts,
// examples-plan.test.ts.

const planned = new Map<string, { result: CliResult; plan?: PlanJson }>();

beforeAll(async () => {
  const files = Object.keys(FIXTURES);
  const results = await pool(files, 3, (file) => runCli(['plan', join(FIXTURE_DIR, file), '--json']));
  files.forEach((file, i) => {
    const result = results[i] as CliResult;
    let plan: PlanJson | undefined;
    try {
      plan = JSON.parse(result.stdout) as PlanJson;
    } catch {
      plan = undefined;
    }
    planned.set(file, { result, ...(plan ? { plan } : {}) });
  });
}, 900_000);

describe('PKB configs from the reference documents plan to the trials PerfKit runs (netbench plan --json)', () => {
  test('every fixture has its expected plan written down here', () => {
    const files = readdirSync(FIXTURE_DIR)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    expect(files).toEqual(Object.keys(FIXTURES).sort());
    // Every config of pkb-configs/ is among them.
    for (const name of [
      'container_netperf',
      'cross_cloud_aws_gcp',
      'docker_to_gcp',
      'inter_region_ping_matrix',
      'interregion_iperf',
      'interzone_iperf',
      'interzone_us_west1',
      'multi_tier',
      'netperf_aggregate_pps',
      'onprem_static_to_gcp',
      'vpn_custom_cidr',
    ]) {
      expect(files).toContain(`${name}.yaml`);
    }
  });

  test.each(Object.entries(FIXTURES))('%s', (file, expected) => {
    const { result, plan } = planned.get(file)!;
    expect(result.code, result.stderr + result.stdout.slice(0, 2000)).toBe(0);
    expect(plan).toBeDefined();
    expect(plan!.trials).toHaveLength(expected.trials);
    expect(plan!.cells).toBe(expected.cells);
    expect(plan!.fleet).toHaveLength(expected.fleet);
    expect(shapeOf(plan!)).toEqual(expected.shape);
    expected.check?.(plan!);
  });
});

describe('netbench convert --out', () => {
  test('--out writes the native spec, which the CLI plans to the same trials', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nbt-pkb-convert-'));
    const out = join(dir, 'interzone.yaml');
    const converted = await runCli(['convert', join(FIXTURE_DIR, 'interzone_us_west1.yaml'), '--out', out]);
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stdout).toBe(`wrote ${out}\n`);
    expect(converted.stderr).toMatch(/interzone_us_west1\.yaml:13:5  netperf\.flags\.netperf_histogram_buckets  ignored/);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/filter: zones != extra_zones/);
    expect(text).toMatch(/zone: "\$\{extra_zones\}"/);
    const replanned = await runCli(['plan', out, '--json']);
    expect(replanned.code, replanned.stderr).toBe(0);
    const original = planned.get('interzone_us_west1.yaml')!.plan!;
    const again = JSON.parse(replanned.stdout) as PlanJson;
    const key = (p: PlanJson) => p.trials.map(({ tool, test, params, client, server, ip, cell }) => JSON.stringify({ tool, test, params, client, server, ip, cell }));
    expect(key(again)).toEqual(key(original));
    expect(again.fleet).toEqual(original.fleet);
  });
});
