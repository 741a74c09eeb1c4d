import {
  AssociateRouteTableCommand,
  AttachInternetGatewayCommand,
  AuthorizeSecurityGroupIngressCommand,
  CreateInternetGatewayCommand,
  CreatePlacementGroupCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeSubnetsCommand,
  type IpPermission,
} from '@aws-sdk/client-ec2';
import { resourceName, tags } from './naming.js';
import { peerPermissions } from './peer-rules.js';
import { awsResource, createTracked, RESOURCE, type RegionContext } from './resources.js';

/** Where a group of hosts goes: a new per-run network, or an existing VPC/subnet (nothing of it deleted). */
export type NetworkChoice = { readonly kind: 'new' } | { readonly kind: 'vpc'; readonly vpcId: string } | { readonly kind: 'subnet'; readonly subnetId: string };

export function networkKey(choice: NetworkChoice): string {
  return choice.kind === 'new' ? 'new' : choice.kind === 'vpc' ? choice.vpcId : choice.subnetId;
}

const VPC_CIDR = '10.77.0.0/16';

/**
 * The security group's description. EC2 allows only `a-zA-Z0-9`, spaces and
 * `._-:/()#,@[]+=&;{}!$*` there (CreateSecurityGroup, GroupDescription) and
 * answers `InvalidParameterValue` otherwise: no apostrophes.
 */
export function securityGroupDescription(runId: string): string {
  return `netbench run ${runId}: SSH from the controller, all traffic between the run hosts`;
}

/**
 * The network of one region (and one network choice): VPC, internet
 * gateway, route table with a default route, one subnet per zone (made on
 * first use, so a fallback zone gets one when needed), a security group and
 * (placement groups are regional: `createPlacementGroup`). Every step is memoised as a promise, so hosts
 * provisioned in parallel share one of each.
 */
export class RegionNetwork {
  private vpc?: Promise<string>;
  private gateway?: Promise<string>;
  private routeTable?: Promise<string>;
  private group?: Promise<string>;
  private readonly subnets = new Map<string, Promise<string>>();
  private subnetCount = 0;

  /**
   * @param allowFrom CIDRs outside the run (`allowFrom`: e.g. the NAT address
   *   of an on-prem machine) that get the tool ports and ICMP, never SSH.
   */
  constructor(
    private readonly ctx: RegionContext,
    readonly choice: NetworkChoice,
    private readonly sshCidr: string,
    private readonly allowFrom: readonly string[] = [],
  ) {}

  private name(what: string): string {
    const suffix = this.choice.kind === 'new' ? '' : `-${networkKey(this.choice)}`;
    return resourceName(this.ctx.runId, `${what}${suffix}`);
  }

  private data(name: string, extra: { vpcId?: string; zone?: string } = {}) {
    return { region: this.ctx.region, name, runId: this.ctx.runId, ...(this.ctx.endpoint ? { endpoint: this.ctx.endpoint } : {}), ...extra };
  }

  vpcId(): Promise<string> {
    this.vpc ??= this.choice.kind === 'new' ? this.createVpc() : this.existingVpc();
    return this.vpc;
  }

  private async createVpc(): Promise<string> {
    const name = this.name('vpc');
    return createTracked(this.ctx, awsResource(RESOURCE.vpc, this.data(name)), async () => {
      const out = await this.ctx.ec2.send(new CreateVpcCommand({ CidrBlock: VPC_CIDR, TagSpecifications: [{ ResourceType: 'vpc', Tags: tags(this.ctx.runId, name) }] }), {
        abortSignal: this.ctx.signal,
      });
      const id = out.Vpc!.VpcId!;
      return { awsId: id, value: id };
    });
  }

  private existingSubnet?: Promise<{ vpcId: string; zone: string; subnetId: string }>;

  private async existingVpc(): Promise<string> {
    if (this.choice.kind === 'vpc') return this.choice.vpcId;
    return (await this.describeExistingSubnet()).vpcId;
  }

  private describeExistingSubnet(): Promise<{ vpcId: string; zone: string; subnetId: string }> {
    const subnetId = (this.choice as { subnetId: string }).subnetId;
    this.existingSubnet ??= this.ctx.ec2.send(new DescribeSubnetsCommand({ SubnetIds: [subnetId] }), { abortSignal: this.ctx.signal }).then((out) => {
      const subnet = out.Subnets?.[0];
      if (!subnet?.VpcId || !subnet.AvailabilityZone) throw new Error(`subnet ${subnetId} not found in ${this.ctx.region}`);
      return { vpcId: subnet.VpcId, zone: subnet.AvailabilityZone, subnetId };
    });
    return this.existingSubnet;
  }

  private internetGateway(): Promise<string> {
    this.gateway ??= (async () => {
      const vpcId = await this.vpcId();
      const name = this.name('igw');
      return createTracked(this.ctx, awsResource(RESOURCE.internetGateway, this.data(name, { vpcId })), async () => {
        const out = await this.ctx.ec2.send(new CreateInternetGatewayCommand({ TagSpecifications: [{ ResourceType: 'internet-gateway', Tags: tags(this.ctx.runId, name) }] }), {
          abortSignal: this.ctx.signal,
        });
        const id = out.InternetGateway!.InternetGatewayId!;
        await this.ctx.ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: id, VpcId: vpcId }), { abortSignal: this.ctx.signal });
        return { awsId: id, value: id };
      });
    })();
    return this.gateway;
  }

  private routes(): Promise<string> {
    this.routeTable ??= (async () => {
      const [vpcId, gatewayId] = await Promise.all([this.vpcId(), this.internetGateway()]);
      const name = this.name('rt');
      return createTracked(this.ctx, awsResource(RESOURCE.routeTable, this.data(name, { vpcId })), async () => {
        const out = await this.ctx.ec2.send(new CreateRouteTableCommand({ VpcId: vpcId, TagSpecifications: [{ ResourceType: 'route-table', Tags: tags(this.ctx.runId, name) }] }), {
          abortSignal: this.ctx.signal,
        });
        const id = out.RouteTable!.RouteTableId!;
        // The default route goes with the table: no ledger line of its own.
        await this.ctx.ec2.send(new CreateRouteCommand({ RouteTableId: id, DestinationCidrBlock: '0.0.0.0/0', GatewayId: gatewayId }), { abortSignal: this.ctx.signal });
        return { awsId: id, value: id };
      });
    })();
    return this.routeTable;
  }

  /** The subnet hosts of `zone` go in: made (with its route table association) on first use. */
  subnetFor(zone: string): Promise<string> {
    let subnet = this.subnets.get(zone);
    if (!subnet) {
      subnet = this.choice.kind === 'new' ? this.createSubnet(zone) : this.findSubnet(zone);
      this.subnets.set(zone, subnet);
    }
    return subnet;
  }

  private async createSubnet(zone: string): Promise<string> {
    const index = this.subnetCount++;
    const vpcId = await this.vpcId();
    const name = this.name(`subnet-${zone}`);
    const subnetId = await createTracked(this.ctx, awsResource(RESOURCE.subnet, this.data(name, { vpcId, zone })), async () => {
      const out = await this.ctx.ec2.send(
        new CreateSubnetCommand({
          VpcId: vpcId,
          AvailabilityZone: zone,
          CidrBlock: `10.77.${index}.0/24`,
          TagSpecifications: [{ ResourceType: 'subnet', Tags: tags(this.ctx.runId, name) }],
        }),
        { abortSignal: this.ctx.signal },
      );
      const id = out.Subnet!.SubnetId!;
      return { awsId: id, value: id };
    });
    const routeTableId = await this.routes();
    const association = this.name(`rta-${zone}`);
    await createTracked(this.ctx, awsResource(RESOURCE.association, this.data(association, { vpcId, zone })), async () => {
      const out = await this.ctx.ec2.send(new AssociateRouteTableCommand({ RouteTableId: routeTableId, SubnetId: subnetId }), { abortSignal: this.ctx.signal });
      return { awsId: out.AssociationId!, value: out.AssociationId! };
    });
    return subnetId;
  }

  /** In an existing network: the given subnet, or the VPC's subnet in the zone with the most free addresses. */
  private async findSubnet(zone: string): Promise<string> {
    if (this.choice.kind === 'subnet') {
      const subnet = await this.describeExistingSubnet();
      if (subnet.zone !== zone) throw new Error(`subnet ${subnet.subnetId} is in ${subnet.zone}, not ${zone}`);
      return subnet.subnetId;
    }
    const vpcId = await this.vpcId();
    const out = await this.ctx.ec2.send(
      new DescribeSubnetsCommand({
        Filters: [
          { Name: 'vpc-id', Values: [vpcId] },
          { Name: 'availability-zone', Values: [zone] },
        ],
      }),
      { abortSignal: this.ctx.signal },
    );
    const best = [...(out.Subnets ?? [])].sort((a, b) => (b.AvailableIpAddressCount ?? 0) - (a.AvailableIpAddressCount ?? 0))[0];
    if (!best?.SubnetId) throw new Error(`VPC ${vpcId} has no subnet in ${zone}; add one or give subnetId`);
    return best.SubnetId;
  }

  /**
   * The run's security group: SSH only from `sshCidr`; every protocol (tool
   * ports, ICMP) only from members of the group itself, i.e. the run's hosts.
   */
  securityGroupId(): Promise<string> {
    this.group ??= (async () => {
      const vpcId = await this.vpcId();
      const name = this.name('sg');
      return createTracked(this.ctx, awsResource(RESOURCE.securityGroup, this.data(name, { vpcId })), async () => {
        const out = await this.ctx.ec2.send(
          new CreateSecurityGroupCommand({
            GroupName: name,
            Description: securityGroupDescription(this.ctx.runId),
            VpcId: vpcId,
            TagSpecifications: [{ ResourceType: 'security-group', Tags: tags(this.ctx.runId, name) }],
          }),
          { abortSignal: this.ctx.signal },
        );
        const groupId = out.GroupId!;
        const permissions: IpPermission[] = [
          { IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: this.sshCidr, Description: 'netbench controller' }] },
          { IpProtocol: '-1', UserIdGroupPairs: [{ GroupId: groupId, Description: 'hosts of the run' }] },
          ...peerPermissions(this.allowFrom.map((cidr) => ({ cidr, family: 4 as const, description: 'netbench allowFrom' }))),
        ];
        await this.ctx.ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: permissions }), { abortSignal: this.ctx.signal });
        return { awsId: groupId, value: groupId };
      });
    })();
    return this.group;
  }

  /** Let the run's hosts in other regions or VPCs in (their public addresses): security groups do not cross VPCs. */
  async allowPeers(addresses: readonly string[]): Promise<void> {
    if (addresses.length === 0) return;
    const groupId = await this.securityGroupId();
    await this.ctx.ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: groupId,
        IpPermissions: [{ IpProtocol: '-1', IpRanges: addresses.map((ip) => ({ CidrIp: `${ip}/32`, Description: 'netbench peer host' })) }],
      }),
      { abortSignal: this.ctx.signal },
    );
  }
}

/** A cluster placement group for a zone (regional, shared by every network of the region). */
export function createPlacementGroup(ctx: RegionContext, zone: string): Promise<string> {
  const name = resourceName(ctx.runId, `cluster-${zone}`);
  const data = { region: ctx.region, name, runId: ctx.runId, zone, ...(ctx.endpoint ? { endpoint: ctx.endpoint } : {}) };
  return createTracked(ctx, awsResource(RESOURCE.placementGroup, data), async () => {
    await ctx.ec2.send(
      new CreatePlacementGroupCommand({ GroupName: name, Strategy: 'cluster', TagSpecifications: [{ ResourceType: 'placement-group', Tags: tags(ctx.runId, name) }] }),
      { abortSignal: ctx.signal },
    );
    return { awsId: name, value: name };
  });
}
