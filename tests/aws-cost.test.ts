import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

// `netbench plan` prices an AWS plan before anything exists (no API call: the
// environment has no AWS credentials or endpoint here).
const SPEC = 'tests/scenarios/aws-cost/spec.yaml';
const env = { AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', NETBENCH_AWS_ENDPOINT: '', AWS_EC2_METADATA_DISABLED: 'true' };

describe('plan with cost (aws)', () => {
  it('shows per cloud what will be created and the estimate', async () => {
    const result = await runCli(['plan', SPEC], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Estimated cost: \$1\.54 \(hosts assumed up 8:38 each/);
    expect(result.stdout).toMatch(/aws: 1 × m5\.large in us-east-1a, 1 × m5\.large in eu-west-1a/);
    expect(result.stdout).toMatch(/inter-region us-east-1 → eu-west-1\s+38\.25 GB\s+\$0\.02\s+\$0\.77/);
    expect(result.stdout).toMatch(/inter-region eu-west-1 → us-east-1\s+37\.5 GB\s+\$0\.02\s+\$0\.75/);
    expect(result.stdout).toMatch(/m5\.large in us-east-1 \(1 host\)\s+0\.1439 instance-hour\s+\$0\.096\s+\$0\.01/);
    expect(result.stdout).toMatch(/price table of 2025-06-01/);
  });

  it('--json carries the cost; --max-cost below it exits 6 and says why', async () => {
    const json = await runCli(['plan', SPEC, '--json'], { env });
    const plan = JSON.parse(json.stdout) as {
      cost: { usd: number; clouds: { cloud: string; estimate: { items: unknown[] } }[] };
      trials: { test: string; traffic?: { direction: string; bitsPerSecond?: number } }[];
    };
    expect(plan.cost.usd).toBe(1.54);
    expect(plan.cost.clouds[0]?.estimate.items).toHaveLength(4);
    expect(plan.trials.map((t) => [t.test, t.traffic?.direction, t.traffic?.bitsPerSecond])).toEqual([
      ['TCP_RR', undefined, undefined],
      ['TCP_STREAM', 'forward', undefined],
      ['TCP_MAERTS', 'reverse', undefined],
      ['udp', 'forward', 2e8],
    ]);

    const refused = await runCli(['plan', SPEC, '--max-cost', '1'], { env });
    expect(refused.code).toBe(6);
    expect(refused.stderr).toMatch(/estimated cost \$1\.54 is above --max-cost \$1\.00/);
    expect((await runCli(['plan', SPEC, '--max-cost', '$2'], { env })).code).toBe(0);
    const bad = await runCli(['plan', SPEC, '--max-cost', 'lots'], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/cannot read --max-cost "lots"/);
  });

  it('a local-only plan costs nothing', async () => {
    const result = await runCli(['plan', 'examples/quickstart.yaml', '--json']);
    const plan = JSON.parse(result.stdout) as { cost: { usd: number; clouds: { cloud: string; note?: string }[] } };
    expect(plan.cost.usd).toBe(0);
    expect(plan.cost.clouds).toEqual([expect.objectContaining({ cloud: 'local', note: 'no charge' })]);
  });
});
