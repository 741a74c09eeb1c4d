import { NetbenchError } from '@netbench/plugin-api';
import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { CONNECTION, closeConnection, connectionId, remember } from './connections.js';
import type { StaticHostConfig } from './host-schema.js';
import { sshOptions } from './ssh-options.js';

/** The label run metadata and every sample carry: how the host key was verified. */
export const HOST_KEY_LABEL = 'host_key_verification';

/**
 * Connect to every host at once. Nothing is created; each connection is
 * still recorded (`connection`), so teardown closes it even when provision
 * fails half-way. When any host cannot be reached, the others are closed and
 * one error names every failure.
 */
export async function provisionStatic(requests: readonly HostRequest<StaticHostConfig>[], ctx: ProvisionContext): Promise<Host[]> {
  // A passphrase is a secret field: the stored spec has it redacted (or holds only its ${env:…}/${file:…} reference).
  const outcomes = await Promise.allSettled(requests.map(async (request) => {
    const options = sshOptions(request);
    const id = connectionId(request.id);
    const resource = {
      type: CONNECTION,
      id,
      host: request.id,
      data: { address: options.address, port: options.port ?? 22, user: options.user, ...(options.jump ? { jump: options.jump.address } : {}) },
    };
    const labels = { ...request.config.labels, [HOST_KEY_LABEL]: options.hostKey.mode };
    return ctx.ledger.track(resource, async () => {
      const connected = await ctx.connectSsh({ ...options, labels });
      remember(ctx.runId, id, connected);
      return connected;
    });
  }));
  const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  if (failed.length === 0) return outcomes.map((o) => (o as PromiseFulfilledResult<Host>).value);
  await Promise.allSettled(requests.map((r) => closeConnection(ctx.runId, connectionId(r.id))));
  const messages = failed.map((e) => (e instanceof Error ? e.message : String(e)));
  if (failed.length === 1 && failed[0] instanceof Error) throw failed[0];
  throw new NetbenchError(`${failed.length} of ${requests.length} static hosts could not be used:\n  ${messages.join('\n  ')}`, { cause: failed[0] });
}
