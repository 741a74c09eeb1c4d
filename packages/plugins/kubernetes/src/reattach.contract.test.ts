import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubernetesPlugin } from './kubernetes-plugin.js';
import { type Harness, harness, RUN_ID, requests } from './test-support/harness.js';

// `reattach` (a staged run's later invocation) against the stand-in API
// server (test-support/fake-kube-api.ts): the pods the ledger lists are read
// back by name and verified (the run's labels, Running), the Service for its
// cluster IP; commands still run through exec. No real cluster.
let h: Harness;
let blocks: ReturnType<typeof requests>;
beforeEach(async () => {
  h = await harness();
  blocks = requests(h.kubeconfig, { w1: {}, w2: { placement: { otherNodeThan: 'w1' } }, w2svc: { serviceOf: 'w2' } });
  await kubernetesPlugin.provision(blocks, h.ctx());
});
afterEach(async () => {
  await h.close();
});

const podKey = (host: string) => [...h.api.pods.keys()].find((k) => k.endsWith(`-${host}`))!;

describe('kubernetes reattach against the stand-in API server', () => {
  it('gives back the same pods and Service address with reads only, and runs commands in them', async () => {
    const before = h.api.requests.length;
    const hosts = await kubernetesPlugin.reattach!(blocks, h.ctx());
    expect(h.api.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
    expect(hosts.map((x) => x.id)).toEqual(['w1', 'w2', 'w2svc']);
    expect(hosts[0]!.internalIp).toBe(h.api.pods.get(podKey('w1'))!['status'].podIP);
    expect(hosts[2]!.labels).toMatchObject({ address: 'cluster-ip', pod: hosts[1]!.labels['pod'] });
    expect(hosts[2]!.internalIp).toMatch(/^127\.0\.30\./);
    expect(hosts[0]!.labels['node']).not.toBe(hosts[1]!.labels['node']);
    expect(await hosts[1]!.exec(['echo', 'still here'])).toMatchObject({ code: 0, stdout: 'still here\n' });
  });

  it('refuses a pod that is gone', async () => {
    h.api.pods.delete(podKey('w2'));
    await expect(kubernetesPlugin.reattach!(blocks, h.ctx())).rejects.toThrow(/host w2: pod .*-w2 is gone/);
  });

  it("refuses a pod whose labels are not this run's", async () => {
    const pod = h.api.pods.get(podKey('w1'))!;
    pod['metadata'].labels = { ...pod['metadata'].labels, 'netbench.io/run': '20260101-000000-other0' };
    await expect(kubernetesPlugin.reattach!(blocks, h.ctx())).rejects.toThrow(
      new RegExp(`host w1: pod .* does not carry the labels netbench.io/run=${RUN_ID}.*it is not this run's`),
    );
  });

  it('refuses a pod that is no longer Running', async () => {
    h.api.pods.get(podKey('w1'))!['status'].phase = 'Failed';
    await expect(kubernetesPlugin.reattach!(blocks, h.ctx())).rejects.toThrow(/host w1: pod .* is Failed, not Running/);
  });
});
