import type { CloudPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { cleanupKubernetes } from './cleanup.js';
import { hostSchema, type KubernetesHostConfig } from './host-schema.js';
import { preflightKubernetes } from './preflight.js';
import { provisionKubernetes } from './provision.js';
import { reattachKubernetes } from './reattach.js';
import { teardownResource } from './teardown.js';

/**
 * `cloud: kubernetes`: each host is a pod (placed by node and pod affinity,
 * optionally on the node's network) or the ClusterIP Service of one; commands
 * run through the exec API. The official client library, the user's
 * kubeconfig and context.
 */
export const kubernetesPlugin = definePlugin<CloudPlugin<KubernetesHostConfig>>({
  kind: 'cloud',
  name: 'kubernetes',
  version: '0.1.0',
  description: 'Kubernetes pods placed by node affinity (pod network, host network, Service cluster IP), reached over the exec API',
  hostSchema,
  preflight: (requests, ctx) => preflightKubernetes(requests, ctx),
  provision: (requests, ctx) => provisionKubernetes(requests, ctx),
  // An earlier invocation's pods, from the ledger: read back by name, verified Running and labelled for this run.
  reattach: (requests, ctx) => reattachKubernetes(requests, ctx),
  teardown: (resource, ctx) => teardownResource(resource, ctx),
  cleanup: (filter, ctx) => cleanupKubernetes(filter, ctx),
});
