import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError, pendingResources } from '@netbench/plugin-api';
import { loginKey, recordedHostKey } from '@netbench/plugin-api/cloud-kit';
import { CONSOLE_SOURCE, connectVm } from './connect-host.js';
import { classify, toNetbenchError } from './errors.js';
import type { AzureHostConfig } from './host-schema.js';
import { resourceName, runGroup, runTags } from './naming.js';
import type { RunContext } from './network.js';
import { runSubscription } from './provision.js';
import { TYPES } from './resources.js';
import type { AzureRuntime } from './runtime.js';
import type { ConnectedHost } from './ssh-connect.js';
import type { CreatedVm } from './vm.js';

/**
 * The VMs an earlier process of this run made (a staged run's next `--stage`,
 * `--resume`), from the ledger: each VM is read back with its instance view,
 * must be `PowerState/running` and still carry the run's and the host's tags;
 * its addresses are read from its NIC and public IP; it is connected over SSH
 * accepting only the host key recorded at provision. Creates nothing on Azure.
 */
export async function reattachAzure(requests: readonly HostRequest<AzureHostConfig>[], ctx: ProvisionContext, runtime: AzureRuntime): Promise<Host[]> {
  if (requests.length === 0) return [];
  const subscriptionId = runSubscription(requests);
  const keyPaths = [...new Set(requests.map((r) => r.config.sshKeyPath ?? ''))];
  const key = await loginKey(ctx.runDir, 'azure-ssh-key', `netbench-${ctx.runId}`, keyPaths[0] || undefined, 'ed25519');
  const run: RunContext = { clients: runtime.clients(subscriptionId), group: runGroup(ctx.runId), created: '', ctx, runtime };
  const vms = await Promise.all(requests.map((r) => findVm(run, r)));
  const hosts: ConnectedHost[] = [];
  try {
    for (const vm of vms) {
      const { policy, record } = await recordedHostKey(ctx.runDir, 'azure', vm.request.id);
      const label = record.source.startsWith('trust on first use') ? 'tofu' : `pinned:${CONSOLE_SOURCE}`;
      hosts.push(await connectVm(run, vm, key.privateKeyPath, { hostKey: policy, label }));
    }
  } catch (error) {
    await Promise.allSettled(hosts.map((h) => h.close()));
    throw error;
  }
  return hosts;
}

const lastSegment = (armId: string) => armId.split('/').at(-1)!;

async function findVm(run: RunContext, request: HostRequest<AzureHostConfig>): Promise<CreatedVm> {
  const { ctx, clients, group } = run;
  const name = resourceName(ctx.runId, request.id);
  const entry = pendingResources(ctx.ledger.entries).find((e) => e.resource.type === TYPES.vm && e.resource.host === request.id);
  if (!entry) throw new NetbenchError(`azure: the ledger of run ${ctx.runId} has no VM for host ${request.id} (it was never provisioned, or was torn down)`);
  const read = <T>(what: string, call: () => Promise<T>) =>
    call().then(
      (v) => v,
      (error: unknown) => {
        if (classify(error) === 'not-found') return undefined;
        throw toNetbenchError(error, `reading ${what}`);
      },
    );
  const vm = await read(`VM ${name}`, () => clients.compute.virtualMachines.get(group, name, { expand: 'instanceView', abortSignal: ctx.signal }));
  if (!vm) throw new NetbenchError(`azure: host ${request.id}: VM ${name} (${entry.resource.id}) is gone`);
  const wanted = runTags(ctx.runId, '', request.id);
  const wrong = ['netbench-run', 'netbench-host'].filter((k) => vm.tags?.[k] !== wanted[k]).map((k) => `${k}=${wanted[k]}`);
  if (wrong.length > 0) throw new NetbenchError(`azure: host ${request.id}: VM ${name} does not carry the tags ${wrong.join(', ')}: it is not this run's`);
  const power = vm.instanceView?.statuses?.find((s) => s.code?.startsWith('PowerState/'))?.code?.slice('PowerState/'.length) ?? 'unknown';
  if (power !== 'running') throw new NetbenchError(`azure: host ${request.id}: VM ${name} is ${power}, not running`);
  const nicId = vm.networkProfile?.networkInterfaces?.[0]?.id;
  const nic = nicId ? await read(`network interface ${nicId}`, () => clients.network.networkInterfaces.get(group, lastSegment(nicId), { abortSignal: ctx.signal })) : undefined;
  const ipConfig = nic?.ipConfigurations?.[0];
  const internalIp = ipConfig?.privateIPAddress;
  if (!internalIp) throw new NetbenchError(`azure: host ${request.id}: VM ${name} has no network interface with a private address`);
  const pipId = ipConfig?.publicIPAddress?.id;
  const pip = pipId ? await read(`public IP ${pipId}`, () => clients.network.publicIPAddresses.get(group, lastSegment(pipId), { abortSignal: ctx.signal })) : undefined;
  const externalIp = pip?.ipAddress;
  if (request.config.publicIp && !externalIp) throw new NetbenchError(`azure: host ${request.id}: VM ${name}'s public IP is gone`);
  const zone = vm.zones?.[0] ? `${vm.location}-${vm.zones[0]}` : vm.location;
  return { request, name, zone, internalIp, ...(externalIp ? { externalIp } : {}), ...(zone !== request.config.zone ? { fallbackFrom: request.config.zone } : {}) };
}
