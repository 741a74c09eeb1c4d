import { describe, expect, test } from 'vitest';
import { SpecError } from '../issues/spec-error.js';
import { createPlan } from '../plan/create-plan.js';
import { TestResolver } from '../spec/__fixtures__/test-plugins.js';
import { loadSpec } from '../spec/load-spec.js';

const IPERF = `# inter-zone iperf, as in the whitepaper
iperf:
  flags:
    iperf_sending_thread_count: 200
    iperf_runtime_in_seconds: 30
  vm_groups:
    vm_1: { vm_spec: { GCP: { machine_type: n1-standard-4, zone: us-east4-b } } }
    vm_2: { vm_spec: { GCP: { machine_type: n1-standard-4, zone: us-east4-c } } }
`;

async function specError(text: string): Promise<SpecError> {
  const error = await loadSpec({ text, file: 'pkb.yaml' }, new TestResolver()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SpecError);
  return error as SpecError;
}

describe('the spec loader reads PKB configs', () => {
  test("a plugin's objection to a translated field points at the PKB line that set it", async () => {
    const error = await specError(IPERF);
    // The test iperf3 plugin takes at most 128 streams; the value came from line 4.
    expect(error.issues).toHaveLength(2);
    expect(error.issues[0]).toMatchObject({ file: 'pkb.yaml', line: 4, col: 33, path: 'iperf.flags.iperf_sending_thread_count' });
    expect(error.issues[0]?.message).toMatch(/\(netbench benchmarks\.0\.streams\)$/);
  });

  test('translation problems stop the load at the PKB key, every one at once', async () => {
    const error = await specError('netperf:\n  flag_matrix: fm\n  flags:\n    cloud: Rackspace\n');
    expect(error.issues.map((i) => `${i.line}:${i.col} ${i.path}`)).toEqual(['2:16 netperf.flag_matrix', '4:12 netperf.flags.cloud']);
  });

  test('a valid config loads with positioned warnings, and --set edits the PKB document', async () => {
    const { spec, warnings } = await loadSpec({ text: IPERF, file: 'pkb.yaml' }, new TestResolver(), {
      sets: ['iperf.flags.iperf_sending_thread_count=8', 'iperf.flags.unknown_flag=1', 'options.concurrency=2'],
    });
    // A flag added by --set has no line of its own: it is placed at its parent and says so.
    expect(warnings).toContain("pkb.yaml:4:5  iperf.flags.unknown_flag  flag 'unknown_flag' is not used by the netbench translation; ignored (value from --set)");
    expect(spec.options.concurrency).toBe(2);
    // PKB's default ip_addresses is INTERNAL: each direction once, on internal addresses.
    expect(spec.benchmarks).toHaveLength(2);
    expect(spec.benchmarks[0]).toMatchObject({ tool: 'iperf3', client: 'vm_1', server: 'vm_2', ip: 'internal', protocol: 'tcp', streams: 8, duration: 30 });
    expect(spec.name).toBe('pkb');
  });

  test('the run keeps the native spec as its text, and that text plans to the same trials', async () => {
    const resolver = new TestResolver();
    const { spec } = await loadSpec({ text: IPERF.replace('200', '"1,4"'), file: 'interzone.yaml' }, resolver);
    const text = spec.source?.text ?? '';
    expect(text).toMatch(/^# netbench spec translated from the PerfKit Benchmarker config interzone.yaml/);
    expect(text).toMatch(/# PKB iperf: vm_2 sends to vm_1, internal address/);
    const again = await loadSpec({ text, file: 'native.yaml' }, resolver);
    const strip = (plan: Awaited<ReturnType<typeof createPlan>>) => plan.trials.map(({ tool, test, params, client, server, ip }) => ({ tool, test, params, client, server, ip }));
    const original = await createPlan(spec, resolver);
    expect(original.trials).toHaveLength(4);
    expect(strip(await createPlan(again.spec, resolver))).toEqual(strip(original));
  });

  test('a native spec is not mistaken for a PKB config', async () => {
    const error = await specError('ping:\n  count: 5\nhosts: {}\n');
    expect(error.issues.map((i) => i.message)).toContain("unknown field 'ping'");
  });
});
