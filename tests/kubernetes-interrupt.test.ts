import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeKubeApi } from '../packages/plugins/kubernetes/src/test-support/fake-kube-api.js';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { readEvents, waitFor } from './helpers/results.js';

// An interrupted Kubernetes run against the stand-in API server: SIGINT tears
// the pods and Services down; after kill -9, `netbench cleanup --all` finds
// them by their labels alone (no ledger in its runs folder) and deletes them.
const SPEC = `name: k8s-long
hosts:
  server: { cloud: kubernetes }
  client: { cloud: kubernetes, placement: { otherNodeThan: server } }
benchmarks:
  - { tool: iperf3, client: client, server: server, protocol: tcp, duration: 1 }
  - { tool: iperf3, client: client, server: server, protocol: tcp, duration: 60 }
`;

const runDirOf = (runsDir: string) => (existsSync(runsDir) ? readdirSync(runsDir).map((d) => join(runsDir, d))[0] : undefined);

describe('an interrupted kubernetes run', () => {
  const api = new FakeKubeApi();
  let kubeconfig = '';
  beforeAll(async () => {
    kubeconfig = await api.start();
  });
  afterAll(async () => {
    await api.stop();
  });

  const start = (home: string) => {
    const spec = join(home, 'k8s-long.yaml');
    writeFileSync(spec, SPEC);
    const runsDir = join(home, 'runs');
    return { runsDir, ...startCli(['run', spec, '--runs-dir', runsDir, '--progress', 'none'], { env: { NETBENCH_HOME: home, KUBECONFIG: kubeconfig } }) };
  };
  const secondTrial = (runsDir: string) =>
    waitFor(
      () => {
        const dir = runDirOf(runsDir);
        return dir && readEvents(dir).some((e) => e.type === 'trial-started' && e.index === 1) ? dir : undefined;
      },
      90_000,
      'the second trial',
    );

  it('SIGINT mid-execute deletes every pod and Service', async () => {
    const home = tempHome();
    const { runsDir, child, done } = start(home);
    await secondTrial(runsDir);
    expect(api.pods.size).toBe(2);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code, result.stderr).toBe(130);
    expect(api.pods.size).toBe(0);
    expect(api.services.size).toBe(0);
    expect(api.rejected).toEqual([]);
  });

  it('kill -9 mid-execute, then `netbench cleanup --all --cloud kubernetes` finds the leftovers by label', async () => {
    const home = tempHome();
    const { runsDir, child, done } = start(home);
    const runDir = await secondTrial(runsDir);
    child.kill('SIGKILL');
    await done;
    expect(api.pods.size).toBe(2); // really left behind
    expect(api.services.size).toBe(2);
    // A runs folder without the run's ledger: only the labels can find them.
    const empty = join(home, 'no-ledgers');
    mkdirSync(empty);
    const env = { NETBENCH_HOME: home, KUBECONFIG: kubeconfig };
    const cleanup = await runCli(['cleanup', '--all', '--cloud', 'kubernetes', '--runs-dir', empty, '--json'], { env });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    const report = JSON.parse(cleanup.stdout) as { deleted: { type: string; id: string }[]; failed: unknown[] };
    expect(report.failed).toEqual([]);
    const runId = runDir.split('/').pop()!;
    expect(report.deleted.map((r) => r.id).sort()).toEqual([
      `default/nb-${runId}-client`,
      `default/nb-${runId}-client`,
      `default/nb-${runId}-server`,
      `default/nb-${runId}-server`,
    ]);
    expect(api.pods.size).toBe(0);
    expect(api.services.size).toBe(0);
    const again = await runCli(['cleanup', '--all', '--cloud', 'kubernetes', '--runs-dir', empty, '--json'], { env });
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as { deleted: unknown[] }).deleted).toEqual([]);
  });
});
