import type { VirtualMachine } from '@azure/arm-compute';
import type { HostRequest } from '@netbench/plugin-api';
import { CapacityError, UnsupportedError } from '@netbench/plugin-api';
import { classify, toNetbenchError } from './errors.js';
import { type AzureHostConfig, imageReference } from './host-schema.js';
import { untilDone } from './lro.js';
import { resourceName, runTags, splitZone } from './naming.js';
import { id, type LocationNetwork, lro, type RunContext } from './network.js';
import { inGroup, TYPES } from './resources.js';

/**
 * Azure's answer when the size cannot have accelerated networking (most
 * 1-vCPU sizes, A-series, older B-series). The default stays on because most
 * sizes netbench measures have it and results depend on it; the size's
 * capability (Resource SKUs `AcceleratedNetworkingEnabled`) is not looked up
 * before the create: this error names the fix instead.
 */
const ACCELERATED_REFUSED = 'VMSizeIsNotPermittedToEnableAcceleratedNetworking';
const acceleratedNetworkingRefused = (error: unknown) => {
  const e = error as { code?: unknown; message?: unknown };
  return e?.code === ACCELERATED_REFUSED || (typeof e?.message === 'string' && e.message.includes(ACCELERATED_REFUSED));
};

export interface CreatedVm {
  readonly request: HostRequest<AzureHostConfig>;
  readonly name: string;
  readonly zone: string;
  readonly internalIp: string;
  readonly externalIp?: string;
  readonly fallbackFrom?: string;
}

/** The NIC: the location's subnet, security group and application security group, the public address. */
export async function createNic(
  run: RunContext,
  request: HostRequest<AzureHostConfig>,
  net: LocationNetwork,
  publicIpId: string | undefined,
): Promise<{ nicId: string; privateIp: string }> {
  const { clients, group, ctx } = run;
  const name = resourceName(ctx.runId, `${request.id}-nic`);
  const nicId = id(run, 'Microsoft.Network/networkInterfaces', name);
  const nic = await ctx.ledger.track(inGroup(TYPES.nic, nicId, request.id), () =>
    untilDone(
      `network interface ${name}`,
      (o) =>
        clients.network.networkInterfaces.createOrUpdate(
          group,
          name,
          {
            location: splitZone(request.config.zone).location,
            tags: runTags(ctx.runId, run.created, request.id),
            enableAcceleratedNetworking: request.config.acceleratedNetworking,
            networkSecurityGroup: { id: net.nsgId },
            ipConfigurations: [
              {
                name: 'ipconfig1',
                primary: true,
                privateIPAllocationMethod: 'Dynamic',
                subnet: { id: net.subnetId },
                applicationSecurityGroups: [{ id: net.asgId }],
                ...(publicIpId ? { publicIPAddress: { id: publicIpId } } : {}),
              },
            ],
          },
          o,
        ),
      lro(run),
    ),
  );
  const privateIp = nic.ipConfigurations?.[0]?.privateIPAddress;
  if (!privateIp) throw new Error(`network interface ${nicId} has no private address`);
  return { nicId, privateIp };
}

export function vmBody(
  run: RunContext,
  request: HostRequest<AzureHostConfig>,
  zone: string,
  name: string,
  nicId: string,
  publicKey: string,
  ppgId: string | undefined,
): VirtualMachine {
  const config = request.config;
  const { location, az } = splitZone(zone);
  return {
    location,
    tags: runTags(run.ctx.runId, run.created, request.id),
    ...(az ? { zones: [az] } : {}),
    hardwareProfile: { vmSize: config.machineType },
    storageProfile: {
      imageReference: imageReference(config.image),
      // The disk goes with the VM; the NIC and address go with the resource group.
      osDisk: { createOption: 'FromImage', deleteOption: 'Delete', managedDisk: { storageAccountType: 'StandardSSD_LRS' } },
    },
    osProfile: {
      computerName: name,
      adminUsername: config.sshUser,
      linuxConfiguration: { disablePasswordAuthentication: true, ssh: { publicKeys: [{ path: `/home/${config.sshUser}/.ssh/authorized_keys`, keyData: publicKey }] } },
    },
    networkProfile: { networkInterfaces: [{ id: nicId, primary: true }] },
    // Managed boot diagnostics: the serial log where cloud-init prints the host keys.
    diagnosticsProfile: { bootDiagnostics: { enabled: true } },
    ...(ppgId ? { proximityPlacementGroup: { id: ppgId } } : {}),
  };
}

/**
 * Create the VM, trying `fallbackZones` of the same location when the zone
 * has no capacity. A VM whose allocation failed still exists (state Failed)
 * and holds its NIC, so it is deleted before the next zone is tried.
 */
export async function createVm(
  run: RunContext,
  request: HostRequest<AzureHostConfig>,
  net: LocationNetwork,
  nic: { nicId: string; privateIp: string },
  externalIp: string | undefined,
  publicKey: string,
): Promise<CreatedVm> {
  const { clients, group, ctx } = run;
  const config = request.config;
  const name = resourceName(ctx.runId, request.id);
  const vmId = id(run, 'Microsoft.Compute/virtualMachines', name);
  const zones = [config.zone, ...config.fallbackZones];
  for (const [i, zone] of zones.entries()) {
    try {
      await ctx.ledger.track(inGroup(TYPES.vm, vmId, request.id), () =>
        untilDone(
          `virtual machine ${name}`,
          (o) =>
            clients.compute.virtualMachines.createOrUpdate(group, name, vmBody(run, request, zone, name, nic.nicId, publicKey, zone === config.zone ? net.ppgId : undefined), o),
          lro(run),
        ),
      );
    } catch (error) {
      if (acceleratedNetworkingRefused(error)) {
        throw new UnsupportedError(
          `${config.machineType} does not support accelerated networking (Azure: ${ACCELERATED_REFUSED}); set acceleratedNetworking: false on host ${request.id}`,
          { cause: error },
        );
      }
      const mapped = toNetbenchError(error, `creating ${config.machineType} VM ${name} in ${zone}`);
      const next = zones[i + 1];
      if (!(mapped instanceof CapacityError) || !next) throw mapped;
      ctx.log.warn(`${zone} has no capacity for ${config.machineType} (host ${request.id}); trying ${next}`);
      await untilDone(`deleting the failed VM ${name}`, (o) => clients.compute.virtualMachines.delete(group, name, o), lro(run)).catch((e: unknown) => {
        if (classify(e) !== 'not-found') throw e;
      });
      continue;
    }
    return { request, name, zone, internalIp: nic.privateIp, ...(externalIp ? { externalIp } : {}), ...(zone !== config.zone ? { fallbackFrom: config.zone } : {}) };
  }
  throw new Error('unreachable: no zone left');
}
