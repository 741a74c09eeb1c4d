import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError, pendingResources } from '@netbench/plugin-api';
import { loginKey, recordedHostKey } from '@netbench/plugin-api/cloud-kit';
import { CONSOLE_SOURCE, connectInstance } from './connect-host.js';
import { classify, toNetbenchError } from './errors.js';
import type { GcpHostConfig } from './host-schema.js';
import type { CreatedInstance } from './instance.js';
import { runLabels } from './naming.js';
import { runProject } from './provision.js';
import { parseId, TYPES } from './resources.js';
import type { GcpRuntime } from './runtime.js';
import type { ConnectedHost } from './ssh-connect.js';

/**
 * The instances an earlier process of this run made (a staged run's next
 * `--stage`, `--resume`), from the ledger: each is read back with
 * `instances.get`, must be RUNNING and still carry the run's and the host's
 * labels, and is connected over SSH accepting only the host key recorded at
 * provision. Creates nothing on GCP.
 */
export async function reattachGcp(requests: readonly HostRequest<GcpHostConfig>[], ctx: ProvisionContext, runtime: GcpRuntime): Promise<Host[]> {
  if (requests.length === 0) return [];
  const project = runProject(requests);
  const keyPaths = [...new Set(requests.map((r) => r.config.sshKeyPath ?? ''))];
  const key = await loginKey(ctx.runDir, 'gcp-ssh-key.pem', `netbench-${ctx.runId}`, keyPaths[0] || undefined);
  const found = await Promise.all(requests.map((r) => findInstance(r, project, ctx, runtime)));
  const hosts: ConnectedHost[] = [];
  try {
    for (const instance of found) {
      const { policy, record } = await recordedHostKey(ctx.runDir, 'gcp', instance.request.id);
      const label = record.source.startsWith('trust on first use') ? 'tofu' : `pinned:${CONSOLE_SOURCE}`;
      hosts.push(await connectInstance(project, instance, key.privateKeyPath, ctx, runtime, { hostKey: policy, label }));
    }
  } catch (error) {
    await Promise.allSettled(hosts.map((h) => h.close()));
    throw error;
  }
  return hosts;
}

/** The instance of this host the ledger lists (the last zone tried is the one made), read back and verified. */
async function findInstance(request: HostRequest<GcpHostConfig>, project: string, ctx: ProvisionContext, runtime: GcpRuntime): Promise<CreatedInstance> {
  const entries = pendingResources(ctx.ledger.entries).filter((e) => e.resource.type === TYPES.instance && e.resource.host === request.id);
  const entry = entries.at(-1);
  if (!entry) throw new NetbenchError(`gcp: the ledger of run ${ctx.runId} has no instance for host ${request.id} (it was never provisioned, or was torn down)`);
  const { zone, name, project: entryProject } = parseId(entry.resource.id);
  if (!zone || entryProject !== project) throw new NetbenchError(`gcp: host ${request.id}: the ledger's instance ${entry.resource.id} is not in project ${project}`);
  const instance = await runtime
    .clients()
    .instances.get({ project, zone, instance: name })
    .then(
      ([i]) => i,
      (error: unknown) => {
        if (classify(error) === 'not-found') return undefined;
        throw toNetbenchError(error, `reading instance ${entry.resource.id}`);
      },
    );
  if (!instance) throw new NetbenchError(`gcp: host ${request.id}: instance ${entry.resource.id} is gone`);
  const labels = instance.labels ?? {};
  const wanted = runLabels(ctx.runId, request.id);
  const wrong = Object.entries(wanted)
    .filter(([k, v]) => labels[k] !== v)
    .map(([k, v]) => `${k}=${v}`);
  if (wrong.length > 0) throw new NetbenchError(`gcp: host ${request.id}: instance ${entry.resource.id} does not carry the labels ${wrong.join(', ')}: it is not this run's`);
  if (instance.status !== 'RUNNING') throw new NetbenchError(`gcp: host ${request.id}: instance ${entry.resource.id} is ${instance.status ?? 'in an unknown state'}, not RUNNING`);
  const nic = instance.networkInterfaces?.[0];
  const internalIp = nic?.networkIP;
  if (!internalIp) throw new NetbenchError(`gcp: host ${request.id}: instance ${entry.resource.id} has no internal address`);
  const externalIp = nic?.accessConfigs?.[0]?.natIP ?? undefined;
  return { request, name, zone, internalIp, ...(externalIp ? { externalIp } : {}), ...(zone !== request.config.zone ? { fallbackFrom: request.config.zone } : {}) };
}
