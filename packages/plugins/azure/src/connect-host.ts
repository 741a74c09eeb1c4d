import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NetbenchError } from '@netbench/plugin-api';
import { parseConsoleHostKeys, recordHostKey, settleVmCongestionControl } from '@netbench/plugin-api/cloud-kit';
import { downloadBlob } from './boot-log.js';
import { splitZone } from './naming.js';
import type { RunContext } from './network.js';
import type { ConnectedHost, SshConnectOptions } from './ssh-connect.js';
import type { CreatedVm } from './vm.js';

export const CONSOLE_SOURCE = 'azure-boot-diagnostics';

/**
 * The host keys cloud-init printed on the serial console, from the VM's boot
 * diagnostics log (`retrieveBootDiagnosticsData` gives a short-lived SAS URI
 * of the log blob). The log reaches storage with a delay: read until the keys
 * appear or the deadline passes (then `[]`).
 */
export async function bootLogHostKeys(run: RunContext, vm: CreatedVm): Promise<string[]> {
  const { clients, group, ctx, runtime } = run;
  const deadline = Date.now() + runtime.timing.hostKeyTimeoutMs;
  for (;;) {
    const data = await clients.compute.virtualMachines.retrieveBootDiagnosticsData(group, vm.name, { sasUriExpirationTimeInMinutes: 10, abortSignal: ctx.signal });
    const uri = data.serialConsoleLogBlobUri;
    const keys = uri ? parseConsoleHostKeys(await downloadBlob(uri, ctx.signal, clients.ca)) : [];
    if (keys.length > 0) return keys;
    if (Date.now() + runtime.timing.consolePollMs > deadline) return [];
    await sleep(runtime.timing.consolePollMs, undefined, { signal: ctx.signal });
  }
}

/**
 * Connect over SSH, the host key pinned to the boot log's keys (or TOFU when
 * allowed), and record the key in the run folder; a reattach passes the key
 * recorded at provision (and the `host_key` label provision gave) instead.
 */
export async function connectVm(
  run: RunContext,
  vm: CreatedVm,
  privateKeyPath: string,
  recorded?: { readonly hostKey: SshConnectOptions['hostKey']; readonly label: string },
): Promise<ConnectedHost> {
  const { ctx, runtime } = run;
  const { request } = vm;
  const config = request.config;
  const keys = recorded || config.hostKeys === 'tofu' ? [] : await bootLogHostKeys(run, vm);
  if (!recorded && keys.length === 0 && config.hostKeys === 'console') {
    throw new NetbenchError(
      `host ${request.id}: no SSH host keys in ${vm.name}'s boot diagnostics log after ${Math.round(runtime.timing.hostKeyTimeoutMs / 1000)} s (hostKeys: console); use hostKeys: console-or-tofu to fall back to trust-on-first-use`,
    );
  }
  if (!recorded && keys.length === 0 && config.hostKeys === 'console-or-tofu') {
    ctx.log.warn(`host ${request.id}: no SSH host keys in the boot diagnostics log; trusting the first key seen (recorded in the run folder)`);
  }
  const hostKey: SshConnectOptions['hostKey'] =
    recorded?.hostKey ?? (keys.length > 0 ? { mode: 'pinned', keys, source: `${CONSOLE_SOURCE} of ${vm.name}` } : { mode: 'tofu', recordFile: join(ctx.runDir, 'known_hosts') });
  const { location } = splitZone(vm.zone);
  const address = vm.externalIp ?? vm.internalIp;
  const labels: Record<string, string> = {
    host_key: recorded ? recorded.label : hostKey.mode === 'pinned' ? `pinned:${CONSOLE_SOURCE}` : 'tofu',
    image: config.image,
    accelerated_networking: String(config.acceleratedNetworking),
    ...(vm.fallbackFrom ? { fallback_from_zone: vm.fallbackFrom } : {}),
    ...(config.placement ? { placement: config.placement } : {}),
  };
  const host = await runtime.connect(
    {
      id: request.id,
      name: request.name,
      cloud: 'azure',
      zone: vm.zone,
      region: location,
      machineType: config.machineType,
      internalIp: vm.internalIp,
      ...(vm.externalIp ? { externalIp: vm.externalIp } : {}),
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
  await settleVmCongestionControl(host, labels, config.congestionControl, `azure: host ${request.id}`);
  if (recorded) return host;
  // Kept in the run folder: a later invocation of this run (reattach) accepts only this key.
  try {
    await recordHostKey(ctx.runDir, 'azure', request.id, address, runtime.sshPort ?? 22, hostKey);
  } catch (error) {
    await host.close();
    throw error;
  }
  return host;
}
