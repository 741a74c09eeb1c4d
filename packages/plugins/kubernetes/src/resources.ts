import type { LedgerResource } from '@netbench/plugin-api';
import type { ClusterRef } from './kube-client.js';

export const TYPES = { pod: 'k8s-pod', service: 'k8s-service' } as const;
export type ResourceType = (typeof TYPES)[keyof typeof TYPES];

/** What teardown needs, in the ledger entry: the cluster and the object's namespace and name. */
export interface KubeResourceData extends ClusterRef {
  readonly namespace: string;
  readonly name: string;
}

export function kubeResource(type: ResourceType, ref: ClusterRef, namespace: string, name: string, host?: string): LedgerResource {
  const data: Record<string, string> = { namespace, name };
  if (ref.kubeconfig !== undefined) data['kubeconfig'] = ref.kubeconfig;
  if (ref.context !== undefined) data['context'] = ref.context;
  return { type, id: `${namespace}/${name}`, ...(host !== undefined ? { host } : {}), data };
}

export function resourceData(resource: LedgerResource): KubeResourceData {
  const data = resource.data ?? {};
  const [idNamespace, idName] = resource.id.split('/');
  const str = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : undefined);
  const namespace = str('namespace') ?? idNamespace;
  const name = str('name') ?? idName;
  if (!namespace || !name) throw new Error(`kubernetes ledger entry ${resource.type} ${resource.id} has no namespace/name`);
  const kubeconfig = str('kubeconfig');
  const context = str('context');
  return { namespace, name, ...(kubeconfig !== undefined ? { kubeconfig } : {}), ...(context !== undefined ? { context } : {}) };
}
