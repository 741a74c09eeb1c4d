import type { EC2Client } from '@aws-sdk/client-ec2';
import type { Ledger, LedgerResource, Logger } from '@netbench/plugin-api';
import { mapAwsError } from './aws-errors.js';

/** Ledger types of what the plugin creates, in the order a region's resources are made. */
export const RESOURCE = {
  keyPair: 'ec2-key-pair',
  vpc: 'ec2-vpc',
  internetGateway: 'ec2-internet-gateway',
  subnet: 'ec2-subnet',
  routeTable: 'ec2-route-table',
  association: 'ec2-route-table-association',
  securityGroup: 'ec2-security-group',
  placementGroup: 'ec2-placement-group',
  instance: 'ec2-instance',
} as const;

export type ResourceType = (typeof RESOURCE)[keyof typeof RESOURCE];

/** What teardown needs, from the ledger entry alone. `awsId` is added once AWS has answered. */
export interface AwsResourceData {
  readonly region: string;
  /** The resource's Name tag (key pairs and placement groups: their name). */
  readonly name: string;
  readonly runId: string;
  readonly endpoint?: string;
  readonly awsId?: string;
  readonly vpcId?: string;
  readonly zone?: string;
}

/** Ledger ids are `<region>/<name>`: names repeat across regions (key pairs), ids may not. */
export function awsResource(type: ResourceType, data: AwsResourceData, host?: string): LedgerResource {
  return { type, id: `${data.region}/${data.name}`, ...(host ? { host } : {}), data: { ...data } };
}

export function resourceData(resource: LedgerResource): AwsResourceData {
  const data = resource.data ?? {};
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : undefined);
  const slash = resource.id.indexOf('/');
  const region = text('region') ?? (slash > 0 ? resource.id.slice(0, slash) : undefined);
  if (!region) throw new Error(`ledger entry ${resource.type} ${resource.id} names no region`);
  const optional = (key: keyof AwsResourceData) => (text(key) !== undefined ? { [key]: text(key) } : {});
  return {
    region,
    name: text('name') ?? resource.id.slice(slash + 1),
    runId: text('runId') ?? '',
    ...optional('endpoint'),
    ...optional('awsId'),
    ...optional('vpcId'),
    ...optional('zone'),
  };
}

/** Everything a step in one region needs. */
export interface RegionContext {
  readonly ec2: EC2Client;
  readonly region: string;
  readonly runId: string;
  readonly endpoint?: string;
  readonly ledger: Ledger;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/**
 * Create a resource the write-ahead way: the ledger holds its intent (with
 * the name it will carry) before the API call, then its AWS id, so teardown
 * deletes by id and falls back to the Name tag after a crash.
 */
export async function createTracked<T>(ctx: RegionContext, resource: LedgerResource, make: () => Promise<{ awsId: string; value: T; data?: Record<string, string> }>): Promise<T> {
  const made = await ctx.ledger.track(resource, async () => {
    try {
      return await make();
    } catch (error) {
      throw mapAwsError(error, `${ctx.region} (${resource.type} ${resource.id})`);
    }
  });
  await ctx.ledger.created({ ...resource, data: { ...resource.data, awsId: made.awsId, ...made.data } });
  return made.value;
}
