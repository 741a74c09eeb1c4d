import { join } from 'node:path';
import { ImportKeyPairCommand } from '@aws-sdk/client-ec2';
import type { HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { allOrFirstError } from '@netbench/plugin-api/cloud-kit';
import type { AwsClients } from './clients.js';
import { inFirstZoneThatFits } from './fallback.js';
import type { AwsHostConfig } from './host-schema.js';
import { type ResolvedImage, resolveImage, rootDeviceName } from './image.js';
import { consoleHostKeys, launchInstance, waitRunning } from './instances.js';
import { sshSourceCidr } from './my-address.js';
import { resourceName, tags } from './naming.js';
import { createPlacementGroup, type NetworkChoice, networkKey, RegionNetwork } from './network.js';
import { instanceTypeFacts, loadPriceTable } from './prices.js';
import { regionOf } from './region.js';
import { awsResource, createTracked, RESOURCE, type RegionContext } from './resources.js';
import type { AwsSettings } from './settings.js';
import { generateSshKeyPair, writeKeyPair } from './ssh-key.js';

export interface LaunchedHost {
  readonly request: HostRequest<AwsHostConfig>;
  readonly region: string;
  /** Where it runs: its own zone, or the fallback zone that had room. */
  readonly zone: string;
  readonly instanceId: string;
  readonly privateIp: string;
  readonly publicIp?: string;
  /** From the console (`type base64`); empty: trust on first use. */
  readonly hostKeys: readonly string[];
  readonly imageId: string;
}

export interface FleetLaunch {
  readonly hosts: LaunchedHost[];
  readonly privateKeyPath: string;
  /** The plugin's folder in the run folder (key, TOFU record). */
  readonly dir: string;
}

export interface FleetDeps {
  readonly clients: AwsClients;
  readonly settings: AwsSettings;
}

const RUNNING_TIMEOUT_MS = 600_000;

/**
 * Everything up to SSH: per-run key pair, per-region networks, instances
 * (in parallel, with fallback zones), running state, console host keys.
 * Each resource is in the ledger before it is asked for.
 */
export async function launchFleet(requests: readonly HostRequest<AwsHostConfig>[], ctx: ProvisionContext, deps: FleetDeps): Promise<FleetLaunch> {
  const dir = join(ctx.runDir, 'aws');
  const key = generateSshKeyPair(`netbench-${ctx.runId}`);
  const { privateKeyPath } = await writeKeyPair(dir, key);

  // One public-address lookup per run, and only when some host needs it.
  let detected: Promise<string> | undefined;
  const sshCidrFor = (config: AwsHostConfig) => {
    const given = config.sshFrom ?? deps.settings.sshFrom;
    if (given) return Promise.resolve(given);
    detected ??= sshSourceCidr(undefined, deps.settings.myIpUrl, ctx.signal).then((r) => {
      ctx.log.info(`aws: SSH allowed from ${r.cidr} (detected)`);
      return r.cidr;
    });
    return detected;
  };

  const groups = new Map<string, HostRequest<AwsHostConfig>[]>();
  for (const request of requests) {
    const endpoint = request.config.endpoint ?? deps.settings.endpoint;
    const key = `${regionOf(request.config.zone)} ${endpoint ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), request]);
  }

  const regions = [...groups.values()].map((group) => launchRegion(group, ctx, deps, key.publicKey, sshCidrFor));
  const launched = await allOrFirstError(regions);

  // Security groups do not reach across VPCs: let each network in the run's other hosts' public addresses.
  const networks = launched.flatMap((r) => r.networks);
  if (networks.length > 1) {
    await allOrFirstError(
      networks.map(({ network, hosts }) => {
        const others = launched
          .flatMap((r) => r.hosts)
          .filter((h) => !hosts.includes(h))
          .flatMap((h) => (h.publicIp ? [h.publicIp] : []));
        return network.allowPeers(others);
      }),
    );
  }
  const byId = new Map(launched.flatMap((r) => r.hosts).map((h) => [h.request.id, h]));
  return { hosts: requests.map((r) => byId.get(r.id)!), privateKeyPath, dir };
}

interface RegionLaunch {
  readonly hosts: LaunchedHost[];
  readonly networks: { network: RegionNetwork; hosts: LaunchedHost[] }[];
}

async function launchRegion(
  requests: readonly HostRequest<AwsHostConfig>[],
  ctx: ProvisionContext,
  deps: FleetDeps,
  publicKey: string,
  sshCidrFor: (config: AwsHostConfig) => Promise<string>,
): Promise<RegionLaunch> {
  const first = requests[0]!.config;
  const region = regionOf(first.zone);
  const endpoint = first.endpoint ?? deps.settings.endpoint;
  const rctx: RegionContext = {
    ec2: deps.clients.ec2(region, endpoint),
    region,
    runId: ctx.runId,
    ledger: ctx.ledger,
    signal: ctx.signal,
    log: ctx.log,
    ...(endpoint ? { endpoint } : {}),
  };
  const table = loadPriceTable(deps.settings.pricesFile);

  const keyName = resourceName(ctx.runId, 'key');
  const keyPair = createTracked(rctx, awsResource(RESOURCE.keyPair, { region, name: keyName, runId: ctx.runId, ...(endpoint ? { endpoint } : {}) }), async () => {
    const out = await rctx.ec2.send(
      new ImportKeyPairCommand({ KeyName: keyName, PublicKeyMaterial: Buffer.from(publicKey), TagSpecifications: [{ ResourceType: 'key-pair', Tags: tags(ctx.runId, keyName) }] }),
      { abortSignal: ctx.signal },
    );
    return { awsId: out.KeyPairId ?? keyName, value: keyName };
  });

  // `allowFrom` of every host of the region: a security group is shared by them.
  const allowFrom = [...new Set(requests.flatMap((r) => r.config.allowFrom))];
  const networks = new Map<string, Promise<RegionNetwork>>();
  const networkFor = (config: AwsHostConfig) => {
    const choice: NetworkChoice = config.subnetId ? { kind: 'subnet', subnetId: config.subnetId } : config.vpcId ? { kind: 'vpc', vpcId: config.vpcId } : { kind: 'new' };
    const k = networkKey(choice);
    let network = networks.get(k);
    if (!network) {
      network = sshCidrFor(config).then((cidr) => new RegionNetwork(rctx, choice, cidr, allowFrom));
      networks.set(k, network);
    }
    return network;
  };

  const images = new Map<string, Promise<ResolvedImage>>();
  const imageFor = (config: AwsHostConfig) => {
    const arch = instanceTypeFacts(table, config.machineType).arch;
    const k = `${arch} ${JSON.stringify(config.image ?? null)}`;
    let image = images.get(k);
    if (!image) {
      image = resolveImage(rctx.ec2, config.image, arch, ctx.signal);
      images.set(k, image);
    }
    return image;
  };

  const rootDevices = new Map<string, Promise<string>>();
  const rootDeviceFor = (image: ResolvedImage) => {
    let device = rootDevices.get(image.imageId);
    if (!device) {
      device = rootDeviceName(rctx.ec2, image, ctx.signal);
      rootDevices.set(image.imageId, device);
    }
    return device;
  };

  const placementGroups = new Map<string, Promise<string>>();
  const placementGroupFor = (zone: string) => {
    let group = placementGroups.get(zone);
    if (!group) {
      group = createPlacementGroup(rctx, zone);
      placementGroups.set(zone, group);
    }
    return group;
  };

  const launches = requests.map(async (request) => {
    const config = request.config;
    const [network, image, keyNameMade] = await Promise.all([networkFor(config), imageFor(config), keyPair]);
    // diskGb resizes the image's own root device, whatever it is called.
    const rootDevice = config.diskGb ? await rootDeviceFor(image) : undefined;
    const securityGroupId = await network.securityGroupId();
    const { value: instanceId, zone } = await inFirstZoneThatFits(
      [config.zone, ...config.fallbackZones],
      async (zone) => {
        const [subnetId, placementGroup] = await Promise.all([network.subnetFor(zone), config.placement === 'cluster' ? placementGroupFor(zone) : Promise.resolve(undefined)]);
        return launchInstance(rctx, {
          hostId: request.id,
          zone,
          machineType: config.machineType,
          imageId: image.imageId,
          ...(config.diskGb ? { diskGb: config.diskGb } : {}),
          ...(rootDevice ? { rootDeviceName: rootDevice } : {}),
          keyName: keyNameMade,
          subnetId,
          securityGroupId,
          ...(placementGroup ? { placementGroup } : {}),
        });
      },
      ctx.log,
    );
    return { request, network, instanceId, zone, imageId: image.imageId };
  });
  const started = await allOrFirstError(launches);

  const running = await waitRunning(
    rctx,
    started.map((s) => s.instanceId),
    RUNNING_TIMEOUT_MS,
  );
  const hosts = await allOrFirstError(
    started.map(async (s): Promise<LaunchedHost> => {
      const state = running.get(s.instanceId)!;
      const hostKeys = await consoleHostKeys(rctx, s.instanceId, s.request.config.hostKeyWait * 1000);
      return {
        request: s.request,
        region,
        zone: s.zone,
        instanceId: s.instanceId,
        privateIp: state.privateIp,
        ...(state.publicIp ? { publicIp: state.publicIp } : {}),
        hostKeys,
        imageId: s.imageId,
      };
    }),
  );

  const byNetwork = new Map<RegionNetwork, LaunchedHost[]>();
  started.forEach((s, i) => byNetwork.set(s.network, [...(byNetwork.get(s.network) ?? []), hosts[i]!]));
  return { hosts, networks: [...byNetwork].map(([network, members]) => ({ network, hosts: members })) };
}
