import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
// The exec transport's WebSocket connector (kubeconfig TLS and auth, the v5/v4
// channel subprotocols). Not re-exported by the package's index; the package
// has no `exports` map, so its module path is public.
import { WebSocketHandler } from '@kubernetes/client-node/dist/web-socket-handler.js';
import { UnsupportedError } from '@netbench/plugin-api';
import type { ExecConnector } from './exec-host.js';
import { checkSpecKubeconfig } from './spec-kubeconfig.js';

/** Which cluster: a kubeconfig file and a context in it (both optional: the client library's defaults). */
export interface ClusterRef {
  readonly kubeconfig?: string;
  readonly context?: string;
}

export interface KubeClients {
  readonly config: KubeConfig;
  readonly core: CoreV1Api;
  readonly ws: ExecConnector;
  /** `server` of the context's cluster, for messages. */
  readonly server: string;
}

const expandHome = (path: string) => (path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path);

/**
 * The user's kubeconfig (the given file, else `KUBECONFIG`, else
 * `~/.kube/config`) at the given context (else its current one), as the
 * official client library reads it: certificates, tokens and exec
 * credential plugins all handled there. A kubeconfig the spec names may not
 * run exec/auth-provider commands or read token files unless the user vouches
 * for it (see `checkSpecKubeconfig`).
 */
export function kubeClients(ref: ClusterRef): KubeClients {
  const config = new KubeConfig();
  if (ref.kubeconfig !== undefined) {
    const file = expandHome(ref.kubeconfig);
    config.loadFromFile(file);
    checkSpecKubeconfig(file, config);
  } else if (process.env['KUBECONFIG'] || existsSync(join(homedir(), '.kube', 'config')) || process.env['KUBERNETES_SERVICE_HOST']) config.loadFromDefault();
  // Without any of these the library would fall back to http://localhost:8080: never talk to whatever listens there.
  else throw new UnsupportedError('no kubeconfig: set KUBECONFIG, create ~/.kube/config, or give kubeconfig in the host block');
  if (ref.context !== undefined) {
    if (!config.getContextObject(ref.context)) {
      const known = config.getContexts().map((c) => c.name);
      throw new Error(`kubeconfig has no context '${ref.context}' (it has: ${known.join(', ') || 'none'})`);
    }
    config.setCurrentContext(ref.context);
  }
  const cluster = config.getCurrentCluster();
  if (!cluster) throw new Error('no Kubernetes cluster: the kubeconfig has no current context (set KUBECONFIG, or give kubeconfig/context in the host block)');
  return { config, core: config.makeApiClient(CoreV1Api), ws: new WebSocketHandler(config), server: cluster.server };
}

/** One set of clients per (kubeconfig, context) for the life of a plugin call. */
export class ClientCache {
  private readonly cache = new Map<string, KubeClients>();
  get(ref: ClusterRef): KubeClients {
    const key = JSON.stringify([ref.kubeconfig ?? null, ref.context ?? null]);
    let clients = this.cache.get(key);
    if (!clients) {
      clients = kubeClients(ref);
      this.cache.set(key, clients);
    }
    return clients;
  }
}

/** HTTP status of an API error from the client library (`ApiException.code`), if it is one. */
export function statusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** The API server's own message of a failed call (its `Status.message`), else the error's. */
export function apiMessage(error: unknown): string {
  const body = (error as { body?: unknown } | null)?.body;
  if (typeof body === 'string') {
    try {
      const parsed = JSON.parse(body) as { message?: string };
      if (parsed.message) return parsed.message;
    } catch {
      /* not JSON */
    }
  }
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') return (body as { message: string }).message;
  return error instanceof Error ? error.message : String(error);
}
