import { DescribeInstancesCommand, GetConsoleOutputCommand, type Instance, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { CapacityError } from '@netbench/plugin-api';
import { parseConsoleHostKeys } from '@netbench/plugin-api/cloud-kit';
import { awsErrorCode } from './aws-errors.js';
import { CLOUD_INIT_FINISHED_RE } from './console-host-keys.js';
import { HOST_TAG, resourceName, shortHash, tags } from './naming.js';
import { awsResource, createTracked, RESOURCE, type RegionContext } from './resources.js';
import { pollUntil, sleep } from './wait.js';

export interface LaunchSpec {
  readonly hostId: string;
  readonly zone: string;
  readonly machineType: string;
  readonly imageId: string;
  /** The image's root device, required with `diskGb` (a mapping for another name adds a volume instead). */
  readonly rootDeviceName?: string;
  readonly diskGb?: number;
  readonly keyName: string;
  readonly subnetId: string;
  readonly securityGroupId: string;
  readonly placementGroup?: string;
}

function rootDeviceOf(spec: LaunchSpec): string {
  if (!spec.rootDeviceName) throw new Error(`host ${spec.hostId}: diskGb needs the image's root device name`);
  return spec.rootDeviceName;
}

/** Start one instance with a public address, tagged with the run id and its fleet host, recorded before the call. */
export async function launchInstance(ctx: RegionContext, spec: LaunchSpec): Promise<string> {
  const name = resourceName(ctx.runId, spec.hostId);
  const resource = awsResource(
    RESOURCE.instance,
    { region: ctx.region, name, runId: ctx.runId, zone: spec.zone, ...(ctx.endpoint ? { endpoint: ctx.endpoint } : {}) },
    spec.hostId,
  );
  const instanceTags = tags(ctx.runId, name, { [HOST_TAG]: spec.hostId });
  return createTracked(ctx, resource, async () => {
    const out = await ctx.ec2.send(
      new RunInstancesCommand({
        ImageId: spec.imageId,
        InstanceType: spec.machineType as never,
        MinCount: 1,
        MaxCount: 1,
        KeyName: spec.keyName,
        // Idempotency: an SDK retry of this call never makes a second machine.
        ClientToken: `nb-${shortHash(`${ctx.runId}/${spec.hostId}/${spec.zone}`)}`,
        NetworkInterfaces: [{ DeviceIndex: 0, SubnetId: spec.subnetId, Groups: [spec.securityGroupId], AssociatePublicIpAddress: true, DeleteOnTermination: true }],
        Placement: { AvailabilityZone: spec.zone, ...(spec.placementGroup ? { GroupName: spec.placementGroup } : {}) },
        InstanceInitiatedShutdownBehavior: 'terminate',
        MetadataOptions: { HttpTokens: 'required' },
        ...(spec.diskGb ? { BlockDeviceMappings: [{ DeviceName: rootDeviceOf(spec), Ebs: { VolumeSize: spec.diskGb, VolumeType: 'gp3', DeleteOnTermination: true } }] } : {}),
        TagSpecifications: [
          { ResourceType: 'instance', Tags: instanceTags },
          { ResourceType: 'volume', Tags: instanceTags },
        ],
      }),
      { abortSignal: ctx.signal },
    );
    const id = out.Instances?.[0]?.InstanceId;
    if (!id) throw new Error('RunInstances returned no instance');
    return { awsId: id, value: id, data: { zone: spec.zone } };
  });
}

export interface RunningInstance {
  readonly instanceId: string;
  readonly privateIp: string;
  readonly publicIp?: string;
}

/** Wait until every instance of a region runs: one DescribeInstances per poll for all of them. */
export async function waitRunning(ctx: RegionContext, instanceIds: readonly string[], timeoutMs: number): Promise<Map<string, RunningInstance>> {
  return pollUntil(
    async () => {
      const out = await ctx.ec2.send(new DescribeInstancesCommand({ InstanceIds: [...instanceIds] }), { abortSignal: ctx.signal });
      const instances = (out.Reservations ?? []).flatMap((r) => r.Instances ?? []);
      const byId = new Map(instances.map((i) => [i.InstanceId!, i]));
      const running = new Map<string, RunningInstance>();
      for (const id of instanceIds) {
        const instance = byId.get(id);
        if (!instance) return undefined; // not visible yet (eventual consistency)
        const state = instance.State?.Name;
        if (state === 'shutting-down' || state === 'terminated' || state === 'stopped' || state === 'stopping') throw failedToStart(instance);
        if (state !== 'running' || !instance.PrivateIpAddress) return undefined;
        running.set(id, { instanceId: id, privateIp: instance.PrivateIpAddress, ...(instance.PublicIpAddress ? { publicIp: instance.PublicIpAddress } : {}) });
      }
      return running;
    },
    `instances ${instanceIds.join(', ')} to run`,
    { timeoutMs, signal: ctx.signal, initialDelayMs: 1000, maxDelayMs: 5000 },
  );
}

function failedToStart(instance: Instance): Error {
  const reason = instance.StateReason?.Message ?? instance.StateTransitionReason ?? 'unknown reason';
  const message = `instance ${instance.InstanceId} went ${instance.State?.Name} while starting: ${reason}`;
  return /InsufficientInstanceCapacity/i.test(reason) ? new CapacityError(message) : new Error(message);
}

/**
 * The host keys cloud-init prints on the console, polled until they show,
 * until cloud-init says it finished without them, or for `waitMs` at most
 * (then the caller trusts on first use). One GetConsoleOutput when `waitMs` is 0.
 */
export async function consoleHostKeys(ctx: RegionContext, instanceId: string, waitMs: number): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  // The latest output needs a Nitro instance; older types answer UnsupportedOperation and give the last snapshot.
  let latest = true;
  for (;;) {
    let out;
    try {
      out = await ctx.ec2.send(new GetConsoleOutputCommand({ InstanceId: instanceId, ...(latest ? { Latest: true } : {}) }), { abortSignal: ctx.signal });
    } catch (error) {
      if (!latest || awsErrorCode(error) !== 'UnsupportedOperation') throw error;
      latest = false;
      continue;
    }
    const text = out.Output ? Buffer.from(out.Output, 'base64').toString('utf8') : '';
    const keys = parseConsoleHostKeys(text);
    if (keys.length > 0 || CLOUD_INIT_FINISHED_RE.test(text) || Date.now() + 5000 > deadline) return keys;
    await sleep(5000, ctx.signal);
  }
}
