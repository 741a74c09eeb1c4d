import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { PublisherSpec } from '../spec/types.js';

export interface ShardJobOptions {
  /** Spec name: the Job and ConfigMap names derive from it. */
  readonly name: string;
  /** The spec to run (any `--set`s already applied); every pod runs its own shard of it. */
  readonly specText: string;
  readonly count: number;
  readonly study: string;
  /** Container image with netbench installed (default `netbench:latest`: build your own). */
  readonly image?: string;
  /** Secret holding the PostgreSQL connection string under key `url` (default `netbench-postgres`). */
  readonly postgresSecret?: string;
  /** Shards running at once (default all of them). */
  readonly parallelism?: number;
  /**
   * The spec has local-lab hosts (`cloud: local`): the pods must make network
   * namespaces, so the container asks for NET_ADMIN and SYS_ADMIN, and a pod
   * that cannot make them fails its shard instead of measuring loopback.
   */
  readonly localLab?: boolean;
  /**
   * Secret whose keys become the pods' environment (`envFrom`, optional: a pod
   * starts without it): cloud credentials such as AWS_ACCESS_KEY_ID, never
   * written into the manifest. Default `netbench-cloud`.
   */
  readonly cloudSecret?: string;
  /** Service account of the pods (workload identity: IRSA, GKE Workload Identity, Azure Workload Identity). */
  readonly serviceAccount?: string;
}

/** The Job's image when `--image` does not say: what `scripts/netbench-image.sh` builds (docs/long-studies.md). */
const NETBENCH_IMAGE = 'netbench:latest';

const NAME_UNSAFE_RE = /[^a-z0-9-]+/g;

/**
 * A value the kubelet passes on as written: it expands `$(VAR)` in a
 * container's command, args and env values (from the pod's environment,
 * secrets included) and turns `$$` into `$`, so every `$` is doubled.
 */
const kubeletLiteral = (value: string): string => value.replace(/\$/g, () => '$$');

const slug = (text: string, max: number) =>
  text
    .toLowerCase()
    .replace(NAME_UNSAFE_RE, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');

/**
 * A DNS-1123 label from the spec name and the study: two studies of one spec
 * get two Jobs (and ConfigMaps), never one object overwritten. The study's
 * hash keeps names apart when the slugs are cut short. At most 48 characters:
 * room for the Indexed Job's pod suffixes within 63.
 */
function objectName(name: string, study: string): string {
  const hash = createHash('sha256').update(study).digest('hex').slice(0, 6);
  return `netbench-${slug(name, 19) || 'spec'}-${slug(study, 12) || 'study'}-${hash}`;
}

/**
 * `netbench plan --shards N --emit k8s-job`: a ConfigMap holding the spec and
 * an Indexed Job of N completions. Kubernetes sets each pod's completion
 * index; the pod runs `netbench run --shard INDEX/N`, publishing to the
 * PostgreSQL store the spec names (its URL from a Secret, never in the
 * manifest). A failed pod is retried by the Job (backoffLimitPerIndex), and
 * its shard starts over as a new run under the same study id.
 */
export function shardJobManifest(options: ShardJobOptions): string {
  const name = objectName(options.name, options.study);
  const labels = { 'app.kubernetes.io/name': 'netbench', 'netbench.io/study': options.study.slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '') || 'study' };
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${name}-spec`, labels },
    data: { 'spec.yaml': options.specText },
  };
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, labels },
    spec: {
      completionMode: 'Indexed',
      completions: options.count,
      parallelism: Math.min(options.parallelism ?? options.count, options.count),
      backoffLimitPerIndex: 1,
      maxFailedIndexes: options.count,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          ...(options.serviceAccount !== undefined ? { serviceAccountName: options.serviceAccount } : {}),
          containers: [
            {
              name: 'netbench',
              image: options.image ?? NETBENCH_IMAGE,
              // No shell: the index comes from the pod's own annotation, expanded by the kubelet; the study (a flag or the spec's) is a literal.
              args: ['run', '/etc/netbench/spec.yaml', '--shard', `$(JOB_COMPLETION_INDEX)/${options.count}`, '--study', kubeletLiteral(options.study), '--progress', 'plain'],
              env: [
                { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } },
                { name: 'NETBENCH_POSTGRES_URL', valueFrom: { secretKeyRef: { name: options.postgresSecret ?? 'netbench-postgres', key: 'url' } } },
                { name: 'NETBENCH_HOME', value: '/var/lib/netbench' },
                // No pod silently measures its own loopback: a local lab it cannot build fails the shard.
                { name: 'NETBENCH_LOCAL_REQUIRE_NETNS', value: '1' },
              ],
              // Cloud credentials from a Secret the user makes (or workload identity): never in this manifest.
              envFrom: [{ secretRef: { name: options.cloudSecret ?? 'netbench-cloud', optional: true } }],
              ...(options.localLab ? { securityContext: { capabilities: { add: ['NET_ADMIN', 'SYS_ADMIN'] } } } : {}),
              volumeMounts: [
                { name: 'spec', mountPath: '/etc/netbench', readOnly: true },
                { name: 'home', mountPath: '/var/lib/netbench' },
              ],
            },
          ],
          volumes: [
            { name: 'spec', configMap: { name: `${name}-spec` } },
            { name: 'home', emptyDir: {} },
          ],
        },
      },
    },
  };
  return [configMap, job].map((doc) => stringify(doc, { lineWidth: 0 })).join('---\n');
}

/**
 * What is wrong with running `publish` in the Job's pods: each pod's own
 * results store lives in an emptyDir and goes with the pod, so a study run
 * this way exists only where it is published to a shared store.
 */
export function shardJobWarnings(publish: readonly PublisherSpec[], postgresSecret = 'netbench-postgres', localLab = false): string[] {
  const warnings: string[] = [];
  if (!publish.some((p) => p.type === 'postgres')) {
    const named = publish.length > 0 ? `it publishes only to ${publish.map((p) => p.type).join(', ')}` : 'it publishes nowhere';
    warnings.push(
      `the Job's pods keep their results in an emptyDir that goes with each pod, and ${named}: add \`publish: [{type: postgres}]\` to the spec (or --set 'publish=[{type: postgres}]'); the URL comes from the Secret ${postgresSecret}`,
    );
  }
  if (localLab) {
    warnings.push(
      "the spec has local-lab hosts: each pod builds network namespaces, so the container asks for NET_ADMIN and SYS_ADMIN; a namespace whose Pod Security level is below 'privileged' refuses such pods, and a pod that cannot make namespaces fails its shard (NETBENCH_LOCAL_REQUIRE_NETNS=1) instead of measuring its own loopback",
    );
  }
  return warnings;
}
