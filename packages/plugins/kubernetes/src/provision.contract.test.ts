import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubernetesPlugin } from './kubernetes-plugin.js';
import { type Harness, harness, RUN_ID, requests } from './test-support/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

describe('kubernetes provision against the stand-in API server', () => {
  it('places pods by affinity, makes a Service per pod, runs commands through exec and tears down from the ledger', async () => {
    const hosts = await kubernetesPlugin.provision(
      requests(h.kubeconfig, {
        w1: {},
        w2: { placement: { sameNodeAs: 'w1' } },
        w3: { placement: { otherNodeThan: 'w2' } },
        w2svc: { serviceOf: 'w2' },
        h1: { hostNetwork: true, placement: { node: 'node-b' }, service: false },
      }),
      h.ctx(),
    );
    expect(h.api.rejected).toEqual([]);
    expect(h.api.unhandled).toEqual([]);
    const [w1, w2, w3, w2svc, h1] = hosts;
    expect(w1!.labels['node']).toBe(w2!.labels['node']);
    expect(w3!.labels['node']).not.toBe(w2!.labels['node']);
    expect(h1!.labels).toMatchObject({ node: 'node-b', network: 'host', address: 'node-ip' });
    expect(h1!.internalIp).toBe('127.0.10.2');
    expect(w2svc!.labels).toMatchObject({ address: 'cluster-ip', pod: w2!.labels['pod'] });
    expect(w2svc!.internalIp).toMatch(/^127\.0\.30\./);
    expect(w1!.zone).toMatch(/^zone-/);

    const echo = await w3!.exec(['echo', 'a; rm -rf /', '$HOME']);
    expect(echo).toMatchObject({ code: 0, stdout: 'a; rm -rf / $HOME\n' });
    expect((await w1!.exec(['sh', '-c', 'exit 3'])).code).toBe(3);
    expect((await w1!.exec(['cat'], { stdin: 'from stdin' })).stdout).toBe('from stdin');
    expect((await w1!.exec(['no-such-tool-netbench'])).code).toBe(127);

    // Every object of the run is in the ledger before it is created.
    const created = h.ledger.entries.filter((e) => e.phase === 'created').map((e) => `${e.resource.type} ${e.resource.id}`);
    expect(created).toHaveLength(7);
    expect(h.api.pods.size).toBe(4);
    expect(h.api.services.size).toBe(3);
    for (const e of [...h.ledger.entries].reverse().filter((e) => e.phase === 'created')) await kubernetesPlugin.teardown(e.resource, h.ctx());
    expect(h.api.pods.size).toBe(0);
    expect(h.api.services.size).toBe(0);
    // Deletes are idempotent: a second teardown of everything is success.
    for (const e of h.ledger.entries.filter((e) => e.phase === 'created')) await kubernetesPlugin.teardown(e.resource, h.ctx());
    const pod = h.api.requests.find((r) => r.method === 'POST' && r.path.endsWith('/pods') && r.body?.['metadata']?.name?.endsWith('-w2'))!;
    expect(pod.body!['metadata']['labels']).toMatchObject({ 'netbench.io/run': RUN_ID, 'netbench.io/host': 'w2' });
    expect(pod.body!['spec']['affinity']['podAffinity']).toBeDefined();
  });

  it('a body the API server would refuse fails provisioning, naming the field', async () => {
    const blocks = requests(h.kubeconfig, { w1: {} });
    // The host schema refuses an empty image, so bypass it the way a buggy plugin would.
    await expect(
      kubernetesPlugin.provision(
        blocks.map((r) => ({ ...r, config: { ...r.config, image: '' } })),
        h.ctx(),
      ),
    ).rejects.toThrow(/spec\.containers\[0\]\.image/);
    expect(h.api.rejected).toHaveLength(1);
    expect(h.ledger.entries.map((e) => e.phase)).toEqual(['intent', 'failed']);
  });

  it('speaks the v4 channel protocol too (no stdin EOF there, so only commands without stdin)', async () => {
    await h.close();
    h = await harness({ execProtocols: ['v4.channel.k8s.io'] });
    const [w1] = await kubernetesPlugin.provision(requests(h.kubeconfig, { w1: { service: false } }), h.ctx());
    expect(await w1!.exec(['sh', '-c', 'echo out; echo err >&2; exit 4'])).toMatchObject({ code: 4, stdout: 'out\n', stderr: 'err\n' });
    await expect(w1!.exec(['cat'], { stdin: 'x' })).rejects.toThrow(/ending stdin needs the v5\.channel\.k8s\.io protocol/);
  });

  it('kills a spawned command through its pid (the exec API has no signals)', async () => {
    const [w1] = await kubernetesPlugin.provision(requests(h.kubeconfig, { w1: { service: false } }), h.ctx());
    const proc = w1!.spawn(['sleep', '30']);
    await new Promise((r) => setTimeout(r, 300));
    proc.kill('SIGTERM');
    const result = await proc.exited;
    expect(result.code).toBe(128 + 15);
  });

  it('preflight: a missing namespace or context is named before anything is created', async () => {
    await expect(kubernetesPlugin.preflight!(requests(h.kubeconfig, { w1: { namespace: 'absent' } }), h.ctx())).rejects.toThrow(/namespace 'absent' does not exist/);
    await expect(kubernetesPlugin.preflight!(requests(h.kubeconfig, { w1: { context: 'nope' } }), h.ctx())).rejects.toThrow(/no context 'nope' \(it has: stand-in, other\)/);
    await expect(kubernetesPlugin.preflight!(requests(h.kubeconfig, { w1: {}, v: { serviceOf: 'w1', namespace: 'bench' } }), h.ctx())).rejects.toThrow(
      /same kubeconfig, context and namespace/,
    );
    await kubernetesPlugin.preflight!(requests(h.kubeconfig, { w1: {}, w2: { context: 'other', namespace: 'bench' }, v: { serviceOf: 'w1' } }), h.ctx());
    expect(h.api.calls()).toEqual(['GET /api/v1/namespaces/absent', 'GET /api/v1/namespaces/default', 'GET /api/v1/namespaces/bench']);
    expect(h.api.pods.size).toBe(0);
  });

  it('refuses placement that cannot be resolved before creating anything', async () => {
    await expect(kubernetesPlugin.provision(requests(h.kubeconfig, { w1: { placement: { sameNodeAs: 'nope' } } }), h.ctx())).rejects.toThrow(
      /sameNodeAs 'nope' is not a kubernetes host/,
    );
    expect(h.api.requests).toEqual([]);
  });

  it("reports a pod the scheduler cannot place, with the scheduler's reason, after startTimeout", async () => {
    await expect(kubernetesPlugin.provision(requests(h.kubeconfig, { w1: { placement: { node: 'node-z' }, startTimeout: 1 } }), h.ctx())).rejects.toThrow(
      /not running after 1 s: not scheduled \(Unschedulable\)/,
    );
  });
});
