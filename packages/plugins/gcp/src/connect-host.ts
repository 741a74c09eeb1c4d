import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { parseConsoleHostKeys, recordHostKey, settleVmCongestionControl } from '@netbench/plugin-api/cloud-kit';
import { tierOf } from './host-schema.js';
import type { CreatedInstance } from './instance.js';
import { sourceImage } from './instance.js';
import { regionOf } from './naming.js';
import type { GcpRuntime } from './runtime.js';
import type { ConnectedHost, SshConnectOptions } from './ssh-connect.js';

export const CONSOLE_SOURCE = 'gce-serial-console';

/**
 * Read serial port 1 until cloud-init has printed the host keys, or the
 * deadline passes (then `[]`). Reads continue from `next`, so each call
 * returns only new output.
 */
export async function consoleHostKeys(project: string, instance: CreatedInstance, ctx: ProvisionContext, runtime: GcpRuntime): Promise<string[]> {
  const clients = runtime.clients();
  const deadline = Date.now() + runtime.timing.hostKeyTimeoutMs;
  let start = 0;
  let text = '';
  for (;;) {
    const [output] = await clients.instances.getSerialPortOutput({ project, zone: instance.zone, instance: instance.name, port: 1, start });
    text += output.contents ?? '';
    const next = Number(output.next ?? 0);
    if (Number.isFinite(next) && next > start) start = next;
    const keys = parseConsoleHostKeys(text);
    if (keys.length > 0) return keys;
    if (Date.now() + runtime.timing.serialPollMs > deadline) return [];
    await sleep(runtime.timing.serialPollMs, undefined, { signal: ctx.signal });
  }
}

/** Connect over SSH, the host key pinned to the console's keys (or TOFU, labelled so, when allowed). */
export async function connectInstance(
  project: string,
  instance: CreatedInstance,
  privateKeyPath: string,
  ctx: ProvisionContext,
  runtime: GcpRuntime,
  /** Reattach: the key recorded at provision instead of the console's, and the `host_key` label provision gave. */
  recorded?: { readonly hostKey: SshConnectOptions['hostKey']; readonly label: string },
): Promise<ConnectedHost> {
  const { request } = instance;
  const config = request.config;
  const keys = recorded || config.hostKeys === 'tofu' ? [] : await consoleHostKeys(project, instance, ctx, runtime);
  if (!recorded && keys.length === 0 && config.hostKeys === 'console') {
    throw new NetbenchError(
      `host ${request.id}: no SSH host keys on ${instance.name}'s serial console after ${Math.round(runtime.timing.hostKeyTimeoutMs / 1000)} s (hostKeys: console); use hostKeys: console-or-tofu to fall back to trust-on-first-use`,
    );
  }
  if (!recorded && keys.length === 0 && config.hostKeys === 'console-or-tofu') {
    ctx.log.warn(`host ${request.id}: no SSH host keys on the serial console; trusting the first key seen (recorded in the run folder)`);
  }
  const hostKey: SshConnectOptions['hostKey'] =
    recorded?.hostKey ??
    (keys.length > 0
      ? { mode: 'pinned', keys, source: `${CONSOLE_SOURCE} of ${project}/${instance.zone}/${instance.name}` }
      : { mode: 'tofu', recordFile: join(ctx.runDir, 'known_hosts') });
  const labels: Record<string, string> = {
    host_key: recorded ? recorded.label : hostKey.mode === 'pinned' ? `pinned:${CONSOLE_SOURCE}` : 'tofu',
    network_tier: tierOf(config),
    image: sourceImage(config),
    ...(instance.fallbackFrom ? { fallback_from_zone: instance.fallbackFrom } : {}),
    ...(config.placement ? { placement: config.placement } : {}),
  };
  const address = instance.externalIp ?? instance.internalIp;
  const port = runtime.sshPort ?? 22;
  const host = await runtime.connect(
    {
      id: request.id,
      name: request.name,
      cloud: 'gcp',
      zone: instance.zone,
      region: regionOf(instance.zone),
      machineType: config.machineType,
      internalIp: instance.internalIp,
      ...(instance.externalIp ? { externalIp: instance.externalIp } : {}),
      labels,
      address,
      ...(runtime.sshPort !== undefined ? { port: runtime.sshPort } : {}),
      user: config.sshUser,
      privateKeyPath,
      agent: false,
      hostKey,
      connectRetry: { ...runtime.timing.sshRetry },
    },
    ctx,
  );
  // Set (or only read) over SSH; the label is what the VM reports. The VM goes with the run: nothing to restore.
  await settleVmCongestionControl(host, labels, config.congestionControl, `gcp: host ${request.id}`);
  // Kept in the run folder: a later invocation of this run (reattach) accepts only this key.
  if (!recorded)
    await recordHostKey(ctx.runDir, 'gcp', request.id, address, port, hostKey).catch(async (error: unknown) => {
      await host.close();
      throw error;
    });
  return host;
}
