import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { hostSchema } from './host-schema.js';
import { kubernetesPlugin } from './kubernetes-plugin.js';
import { podBody } from './manifests.js';
import { podCauses } from './test-support/api-rules.js';
import { type Harness, harness, requests } from './test-support/harness.js';

// congestionControl on pods against the stand-in API server: the pod body
// (securityContext.sysctls) passes the official OpenAPI definitions and the
// API's sysctl rules; the stand-in's kubelet rejects it unless allowed
// (--allowed-unsafe-sysctls), and otherwise writes it into a network namespace
// of the pod's own (root), so the label netbench reads back is the kernel's answer.
const SYSCTL = 'net.ipv4.tcp_congestion_control';
const proc = (name: string) => readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim();
const isRoot = process.getuid?.() === 0;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const teardownAll = async (hh: Harness) => {
  for (const e of [...hh.ledger.entries].reverse().filter((e) => e.phase === 'created')) await kubernetesPlugin.teardown(e.resource, hh.ctx());
};

describe('kubernetes congestionControl', () => {
  it('the pod asks for the sysctl in a body the API server accepts; hostNetwork and serviceOf hosts are refused by the schema', () => {
    const pod = podBody('20261125-013000-abc123', 'w1', hostSchema.parse({ congestionControl: 'reno' }));
    expect(pod.spec.securityContext).toEqual({ sysctls: [{ name: SYSCTL, value: 'reno' }] });
    expect(podCauses(pod as never, 'default')).toEqual([]);
    // The API's own rule, were a body to get there: no net.* sysctl in the node's network namespace.
    expect(podCauses({ ...pod, spec: { ...pod.spec, hostNetwork: true } } as never, 'default')).toEqual([
      { field: 'spec.securityContext.sysctls[0].name', message: `Invalid value: "${SYSCTL}": may not be specified when 'hostNetwork' is true` },
    ]);
    const onHost = hostSchema.safeParse({ congestionControl: 'reno', hostNetwork: true });
    expect(onHost.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      expect.stringMatching(/^congestionControl: congestionControl needs the pod's own network namespace: not with hostNetwork/),
    ]);
    expect(hostSchema.safeParse({ congestionControl: 'reno', serviceOf: 'w1' }).success).toBe(false);
    expect(hostSchema.safeParse({ congestionControl: 'reno; rm -rf /' }).success).toBe(false);
  });

  it('a kubelet that does not allow the unsafe sysctl rejects the pod: provisioning says how to allow it', async () => {
    h = await harness();
    const error = await kubernetesPlugin.provision(requests(h.kubeconfig, { w1: { congestionControl: 'reno' } }), h.ctx()).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(
      /kubernetes: host w1: congestionControl reno: .*forbidden sysctl: "net\.ipv4\.tcp_congestion_control" not allowlisted\. To fix: start the node's kubelet with --allowed-unsafe-sysctls=net\.ipv4\.tcp_congestion_control/,
    );
    expect(h.api.rejected).toEqual([]);
    await teardownAll(h);
    expect(h.api.pods.size).toBe(0);
  });

  it.runIf(isRoot)("an allowing kubelet: the pod's namespace uses the algorithm, every host is labelled with what it reports", async () => {
    h = await harness({ allowedUnsafeSysctls: [SYSCTL] });
    const machineDefault = proc('tcp_congestion_control');
    const other = machineDefault === 'reno' ? undefined : 'reno';
    const hosts = await kubernetesPlugin.provision(
      requests(h.kubeconfig, {
        w1: { congestionControl: other ?? 'reno' },
        w2: {},
        w1svc: { serviceOf: 'w1' },
      }),
      h.ctx(),
    );
    expect(h.api.rejected).toEqual([]);
    expect(h.api.unhandled).toEqual([]);
    const [w1, w2, w1svc] = hosts;
    expect(w1!.labels['tcp_congestion_control']).toBe(other ?? 'reno');
    // The kernel's answer in the pod, not netbench's echo of the spec.
    expect((await w1!.exec(['cat', `/proc/sys/net/ipv4/tcp_congestion_control`])).stdout.trim()).toBe(other ?? 'reno');
    expect(w2!.labels['tcp_congestion_control']).toBe(machineDefault);
    expect(w1svc!.labels['tcp_congestion_control']).toBe(other ?? 'reno');
    expect(proc('tcp_congestion_control')).toBe(machineDefault);
    await teardownAll(h);
    expect(h.api.pods.size).toBe(0);
  });

  it.runIf(isRoot)("reattach reads the label again and refuses a pod made with another setting than the spec's", async () => {
    h = await harness({ allowedUnsafeSysctls: [SYSCTL] });
    const blocks = requests(h.kubeconfig, { w1: { congestionControl: 'reno' } });
    await kubernetesPlugin.provision(blocks, h.ctx());
    const [again] = await kubernetesPlugin.reattach!(blocks, h.ctx());
    expect(again!.labels['tcp_congestion_control']).toBe('reno');
    const changed = requests(h.kubeconfig, { w1: {} });
    await expect(kubernetesPlugin.reattach!(changed, h.ctx())).rejects.toThrow(/kubernetes: host w1: pod .* was made with congestion control reno, the spec sets none/);
    await teardownAll(h);
  });

  it.runIf(isRoot)("an algorithm the node's kernel does not allow for pods: the pod never starts and the error names the node's allowed list", async () => {
    const outside = proc('tcp_available_congestion_control')
      .split(/\s+/)
      .find((cc) => !proc('tcp_allowed_congestion_control').split(/\s+/).includes(cc));
    if (outside === undefined) return; // every loaded algorithm is allowed here
    h = await harness({ allowedUnsafeSysctls: [SYSCTL] });
    const error = await kubernetesPlugin.provision(requests(h.kubeconfig, { w1: { congestionControl: outside, startTimeout: 2 } }), h.ctx()).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(
      new RegExp(
        `kubernetes: host w1: congestionControl ${outside}: .*not running after 2 s: ContainerCreating: failed to create pod sandbox: .*tcp_congestion_control.*net\\.ipv4\\.tcp_allowed_congestion_control on the node`,
      ),
    );
    await teardownAll(h);
    expect(h.api.pods.size).toBe(0);
  });
});
