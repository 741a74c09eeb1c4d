import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { shardJobManifest } from './k8s-job.js';

/**
 * The kubelet's expansion of a container's command, args and env values
 * (k8s.io/kubernetes third_party/forked/golang/expansion Expand): `$$` is a
 * `$`, `$(NAME)` is NAME's value when the pod defines it, anything else stays.
 */
function kubeletExpand(input: string, vars: Record<string, string>): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor += 1) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const rest = input.slice(cursor + 1);
    let advance = 1;
    if (rest[0] === '$') out += '$';
    else if (rest[0] === '(') {
      const close = rest.indexOf(')');
      if (close === -1) out += '$(';
      else {
        const name = rest.slice(1, close);
        out += Object.hasOwn(vars, name) ? vars[name] : `$(${name})`;
        advance = close + 1;
      }
    } else out += `$${rest[0]}`;
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}

const podEnv = { JOB_COMPLETION_INDEX: '2', NETBENCH_POSTGRES_URL: 'postgres://netbench:s3cret@db/bench', NETBENCH_HOME: '/var/lib/netbench' };

describe('the Indexed Job manifest', () => {
  it.each(['$(NETBENCH_POSTGRES_URL)', '$$(NETBENCH_POSTGRES_URL)', 'a$(JOB_COMPLETION_INDEX)b', 'cost-$5', 'x$', '$(unclosed', '$$'])(
    'hands the study %s to netbench run exactly as given, whatever the kubelet expands',
    (study) => {
      const [, job] = parseAllDocuments(shardJobManifest({ name: 'n', specText: 'name: n\n', count: 4, study })).map(
        (d) => d.toJS() as { spec: { template: { spec: { containers: { args: string[]; command?: string[]; env: { name: string; value?: string }[] }[] } } } },
      );
      const container = job!.spec.template.spec.containers[0]!;
      const args = container.args.map((a) => kubeletExpand(a, podEnv));
      expect(args).toEqual(['run', '/etc/netbench/spec.yaml', '--shard', '2/4', '--study', study, '--progress', 'plain']);
      expect(args.join(' ')).not.toContain('s3cret');
      expect(container.command).toBeUndefined();
      // The only literal env values are netbench's own.
      expect(container.env.filter((e) => e.value !== undefined)).toEqual([
        { name: 'NETBENCH_HOME', value: '/var/lib/netbench' },
        { name: 'NETBENCH_LOCAL_REQUIRE_NETNS', value: '1' },
      ]);
    },
  );
});

describe('the Indexed Job manifest, as a cluster reads it', () => {
  const docs = (options: Partial<Parameters<typeof shardJobManifest>[0]> = {}) =>
    parseAllDocuments(shardJobManifest({ name: 'inter-zone', specText: 'name: inter-zone\n', count: 3, study: 'study-a', ...options })).map((d) => d.toJS() as Record<string, any>);

  it('names its Job and ConfigMap after the study too: two studies of one spec do not collide', () => {
    const [mapA, jobA] = docs({ study: 'nightly-2026-12-07' });
    const [mapB, jobB] = docs({ study: 'nightly-2026-12-08' });
    expect(jobA!.metadata.name).not.toBe(jobB!.metadata.name);
    expect(mapA!.metadata.name).not.toBe(mapB!.metadata.name);
    expect(jobA!.spec.template.spec.volumes[0].configMap.name).toBe(mapA!.metadata.name);
    // Same study, same names (a re-emitted manifest replaces its own objects); DNS-1123, room for pod suffixes.
    expect(docs({ study: 'nightly-2026-12-07' })[1]!.metadata.name).toBe(jobA!.metadata.name);
    for (const name of [jobA!.metadata.name, jobB!.metadata.name, docs({ name: 'x'.repeat(80), study: 'y'.repeat(80) })[1]!.metadata.name]) {
      expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      expect(name.length).toBeLessThanOrEqual(48);
    }
  });

  it('carries no credential: cloud keys come from an optional Secret (envFrom) or a service account, the store URL from its Secret', () => {
    const secretish = {
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      GOOGLE_APPLICATION_CREDENTIALS: '/home/me/key.json',
      AZURE_CLIENT_SECRET: 'azsecret-123',
      PGPASSWORD: 'pgsecret-456',
    };
    const saved = { ...process.env };
    Object.assign(process.env, secretish);
    try {
      const text = shardJobManifest({ name: 'n', specText: 'name: n\n', count: 2, study: 's', serviceAccount: 'netbench-runner' });
      for (const value of Object.values(secretish)) expect(text).not.toContain(value);
      const [, job] = parseAllDocuments(text).map((d) => d.toJS() as Record<string, any>);
      const pod = job!.spec.template.spec;
      expect(pod.serviceAccountName).toBe('netbench-runner');
      expect(pod.containers[0].envFrom).toEqual([{ secretRef: { name: 'netbench-cloud', optional: true } }]);
      const literal = pod.containers[0].env.filter((e: { value?: string }) => e.value !== undefined).map((e: { name: string }) => e.name);
      expect(literal.sort()).toEqual(['NETBENCH_HOME', 'NETBENCH_LOCAL_REQUIRE_NETNS']);
    } finally {
      for (const key of Object.keys(secretish)) if (!(key in saved)) delete process.env[key];
    }
  });

  it('a local-lab spec asks for the capabilities namespaces need, and forbids the loopback fallback in every pod', () => {
    const local = docs({ localLab: true })[1]!.spec.template.spec.containers[0];
    expect(local.securityContext).toEqual({ capabilities: { add: ['NET_ADMIN', 'SYS_ADMIN'] } });
    const cloud = docs()[1]!.spec.template.spec.containers[0];
    expect(cloud.securityContext).toBeUndefined();
    for (const c of [local, cloud]) expect(c.env).toContainEqual({ name: 'NETBENCH_LOCAL_REQUIRE_NETNS', value: '1' });
  });

  it('is valid against the Kubernetes OpenAPI definitions (kubernetes-models)', async () => {
    const { Job } = await import('kubernetes-models/batch/v1/Job');
    const { ConfigMap } = await import('kubernetes-models/v1/ConfigMap');
    for (const options of [{}, { localLab: true, serviceAccount: 'sa' }]) {
      const [map, job] = docs(options);
      expect(() => new ConfigMap(map as never).validate()).not.toThrow();
      expect(() => new Job(job as never).validate()).not.toThrow();
    }
    // The validator is not a rubber stamp: a wrong field type is refused.
    const [, bad] = docs();
    bad!.spec.completions = 'three';
    expect(() => new Job(bad as never).validate()).toThrow();
  });
});
