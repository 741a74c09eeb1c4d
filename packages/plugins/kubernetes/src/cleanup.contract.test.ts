import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubernetesPlugin } from './kubernetes-plugin.js';
import { type Harness, harness, RUN_ID, requests } from './test-support/harness.js';

let h: Harness;
const previous = process.env['KUBECONFIG'];
beforeEach(async () => {
  h = await harness();
  process.env['KUBECONFIG'] = h.kubeconfig;
});
afterEach(async () => {
  await h.close();
  if (previous === undefined) delete process.env['KUBECONFIG'];
  else process.env['KUBECONFIG'] = previous;
});

describe('kubernetes cleanup --all (no ledger)', () => {
  it('finds pods and Services by their netbench labels in every namespace and deletes them, leaving other objects and excluded runs alone', async () => {
    await kubernetesPlugin.provision(requests(h.kubeconfig, { a: {}, b: { namespace: 'bench', service: false } }), h.ctx());
    // An object netbench did not make, and one of a run still running.
    h.api.pods.set('default/someone-else', {
      metadata: { name: 'someone-else', namespace: 'default', labels: { app: 'x' } },
      spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'x' }] },
      status: { phase: 'Running' },
    });
    const ctx = { runId: 'cleanup', runDir: h.runDir, signal: AbortSignal.timeout(30_000), log: h.log };

    const excluded = await kubernetesPlugin.cleanup!({ excludeRunIds: [RUN_ID] }, ctx);
    expect(excluded.found).toEqual([]);
    // A run alive on the machine that sweeps: its objects are reported as spared, with their run id.
    expect(excluded.spared?.map((r) => `${r.type} ${r.id} ${String(r.data?.['runId'])}`).sort()).toEqual([
      `k8s-pod bench/nb-${RUN_ID}-b ${RUN_ID}`,
      `k8s-pod default/nb-${RUN_ID}-a ${RUN_ID}`,
      `k8s-service default/nb-${RUN_ID}-a ${RUN_ID}`,
    ]);
    const young = await kubernetesPlugin.cleanup!({ olderThanMs: 3_600_000 }, ctx);
    expect(young.found).toEqual([]);
    const dry = await kubernetesPlugin.cleanup!({ dryRun: true }, ctx);
    expect(dry.found.map((r) => `${r.type} ${r.id}`).sort()).toEqual([`k8s-pod bench/nb-${RUN_ID}-b`, `k8s-pod default/nb-${RUN_ID}-a`, `k8s-service default/nb-${RUN_ID}-a`]);
    expect(h.api.pods.size).toBe(3);

    const report = await kubernetesPlugin.cleanup!({ runId: RUN_ID }, ctx);
    expect(report.failed).toEqual([]);
    expect(report.found).toHaveLength(3);
    expect([...h.api.pods.keys()]).toEqual(['default/someone-else']);
    expect(h.api.services.size).toBe(0);
    const selectors = h.api.requests.filter((r) => r.path === '/api/v1/pods' || r.path === '/api/v1/services').map((r) => r.query['labelSelector']);
    expect(new Set(selectors)).toEqual(new Set(['app.kubernetes.io/managed-by=netbench,netbench.io/run']));
    expect(h.api.rejected).toEqual([]);
    expect(h.api.unhandled).toEqual([]);
  });
});
