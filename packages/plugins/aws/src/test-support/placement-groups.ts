import { randomBytes } from 'node:crypto';
import {
  dryRunReply,
  type Ec2Tag,
  ec2Error,
  ec2Response,
  filterValueMatches,
  MOTO_ACCOUNT,
  type QueryFilter,
  queryFilters,
  queryList,
  queryTagSpecifications,
  type Reply,
  tagFilterMatches,
  tagSetXml,
  withFilters,
  xml,
} from './ec2-query.js';

/**
 * EC2 placement groups, which moto 5.2.5 lacks (its CreatePlacementGroup is an
 * HTML 500). Shapes from the EC2 API Reference:
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreatePlacementGroup.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribePlacementGroups.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DeletePlacementGroup.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_PlacementGroup.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstances.html (`placement-group-name`),
 * error codes from https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html.
 * Not modelled: cluster groups pinned to one zone, spread's 7-per-zone limit,
 * partition numbers, shared groups, the `deleting`/`deleted` states (a deleted group is gone at once).
 */
export interface PlacementGroupRecord {
  readonly region: string;
  readonly name: string;
  readonly id: string;
  readonly arn: string;
  readonly strategy: 'cluster' | 'spread' | 'partition';
  readonly state: 'available';
  readonly tags: readonly Ec2Tag[];
  readonly partitionCount?: number;
  readonly spreadLevel?: string;
}

const STRATEGIES = new Set(['cluster', 'spread', 'partition']);
const FILTERS = new Set(['group-name', 'group-arn', 'state', 'strategy', 'spread-level']);
/** An id no instance has: a `placement-group-name` filter that matches no member becomes an `instance-id` filter matching nothing. */
const NO_INSTANCE = 'i-00000000000000000';

export class PlacementGroupStore {
  private readonly groups = new Map<string, Map<string, PlacementGroupRecord>>();
  /** Instance id -> group it was launched into, by region; kept after the group is deleted (terminated instances keep their placement). */
  private readonly placements = new Map<string, Map<string, PlacementGroupRecord>>();

  list(region: string): PlacementGroupRecord[] {
    return [...(this.groups.get(region)?.values() ?? [])];
  }

  /** The group an instance was launched into, if any. */
  groupOf(region: string, instanceId: string): PlacementGroupRecord | undefined {
    return this.placements.get(region)?.get(instanceId);
  }

  private regional<T>(map: Map<string, Map<string, T>>, region: string): Map<string, T> {
    let inner = map.get(region);
    if (!inner) map.set(region, (inner = new Map()));
    return inner;
  }

  create(params: URLSearchParams, region: string): Reply {
    const name = params.get('GroupName');
    const strategy = params.get('Strategy');
    if (!name) return ec2Error('MissingParameter', 'The request must contain the parameter groupName');
    if (name.length > 255 || !/^[\x20-\x7e]+$/.test(name)) return ec2Error('InvalidParameterValue', `Invalid value '${name}' for groupName. Up to 255 ASCII characters.`);
    if (!strategy) return ec2Error('MissingParameter', 'The request must contain the parameter strategy');
    if (!STRATEGIES.has(strategy)) return ec2Error('InvalidParameterValue', `Value (${strategy}) for parameter strategy is invalid. Valid values: cluster, spread, partition`);
    const specs = queryTagSpecifications(params);
    const wrong = specs.find((s) => s.resourceType !== 'placement-group');
    if (wrong) return ec2Error('InvalidParameterValue', `'${wrong.resourceType}' is not a valid taggable resource type for this operation.`);
    const partitions = params.get('PartitionCount');
    if (partitions !== null && (strategy !== 'partition' || !/^[1-7]$/.test(partitions)))
      return ec2Error('InvalidParameterValue', 'PartitionCount is valid only for the partition strategy, from 1 to 7.');
    const dryRun = dryRunReply(params);
    if (dryRun) return dryRun;
    const groups = this.regional(this.groups, region);
    if (groups.has(name)) return ec2Error('InvalidPlacementGroup.Duplicate', `The placement group '${name}' already exists.`);
    const id = `pg-${randomBytes(9).toString('hex').slice(0, 17)}`;
    const spreadLevel = params.get('SpreadLevel');
    const group: PlacementGroupRecord = {
      region,
      name,
      id,
      arn: `arn:aws:ec2:${region}:${MOTO_ACCOUNT}:placement-group/${name}`,
      strategy: strategy as PlacementGroupRecord['strategy'],
      state: 'available',
      tags: specs.flatMap((s) => s.tags),
      ...(strategy === 'partition' ? { partitionCount: Number(partitions ?? 2) } : {}),
      ...(strategy === 'spread' ? { spreadLevel: spreadLevel ?? 'rack' } : {}),
    };
    groups.set(name, group);
    return ec2Response('CreatePlacementGroup', `<return>true</return><placementGroup>${groupXml(group)}</placementGroup>`);
  }

  describe(params: URLSearchParams, region: string): Reply {
    const dryRun = dryRunReply(params);
    if (dryRun) return dryRun;
    const all = this.list(region);
    const names = queryList(params, 'GroupName');
    const ids = queryList(params, 'GroupId');
    for (const wanted of names) if (!all.some((g) => g.name === wanted)) return unknownGroup(wanted);
    for (const wanted of ids) if (!all.some((g) => g.id === wanted)) return ec2Error('InvalidPlacementGroupId.NotFound', `The placement group ID '${wanted}' does not exist.`);
    const filters = queryFilters(params);
    const bad = filters.find((f) => !FILTERS.has(f.name) && tagFilterMatches(f, []) === undefined);
    if (bad) return ec2Error('InvalidParameterValue', `The filter '${bad.name}' is invalid`);
    const found = all.filter((g) => (names.length === 0 || names.includes(g.name)) && (ids.length === 0 || ids.includes(g.id)) && filters.every((f) => groupMatches(g, f)));
    const items = found.map((g) => `<item>${groupXml(g)}</item>`).join('');
    return ec2Response('DescribePlacementGroups', items ? `<placementGroupSet>${items}</placementGroupSet>` : '<placementGroupSet/>');
  }

  /** Refused with `InvalidPlacementGroup.InUse` while any instance launched into the group is alive (asked of moto by `liveInstances`). */
  async delete(params: URLSearchParams, region: string, liveInstances: (ids: string[]) => Promise<string[]>): Promise<Reply> {
    const name = params.get('GroupName');
    if (!name) return ec2Error('MissingParameter', 'The request must contain the parameter groupName');
    const groups = this.regional(this.groups, region);
    const group = groups.get(name);
    if (!group) return unknownGroup(name);
    const dryRun = dryRunReply(params);
    if (dryRun) return dryRun;
    const members = [...this.regional(this.placements, region)].filter(([, g]) => g === group).map(([id]) => id);
    if (members.length > 0 && (await liveInstances(members)).length > 0) {
      return ec2Error('InvalidPlacementGroup.InUse', `The placement group '${name}' is in use and may not be deleted.`);
    }
    groups.delete(name);
    return ec2Response('DeletePlacementGroup', '<return>true</return>');
  }

  /** The group a RunInstances names (`Placement.GroupName` or `Placement.GroupId`), or EC2's refusal when there is no such group. */
  launchTarget(params: URLSearchParams, region: string): { group?: PlacementGroupRecord; refusal?: Reply } {
    const name = params.get('Placement.GroupName');
    const id = params.get('Placement.GroupId');
    if (!name && !id) return {};
    const group = this.list(region).find((g) => (name ? g.name === name : g.id === id));
    return group ? { group } : { refusal: unknownGroup(name ?? id!) };
  }

  join(group: PlacementGroupRecord, instanceIds: readonly string[]): void {
    const placements = this.regional(this.placements, group.region);
    for (const id of instanceIds) placements.set(id, group);
  }

  /**
   * DescribeInstances with `placement-group-name` (moto raises
   * NotImplementedError on it once any instance exists): the same question as
   * an `instance-id` filter over the instances launched into those groups.
   * Undefined when the request has no such filter.
   */
  rewriteInstanceFilters(params: URLSearchParams, region: string): URLSearchParams | undefined {
    const filters = queryFilters(params);
    const byGroup = filters.filter((f) => f.name === 'placement-group-name');
    if (byGroup.length === 0) return undefined;
    const placements = [...(this.placements.get(region) ?? [])];
    let ids: string[] | undefined;
    for (const filter of [...byGroup, ...filters.filter((f) => f.name === 'instance-id')]) {
      const matching =
        filter.name === 'instance-id'
          ? placements.map(([id]) => id).filter((id) => filter.values.some((v) => filterValueMatches(v, id)))
          : placements.filter(([, g]) => filter.values.some((v) => filterValueMatches(v, g.name))).map(([id]) => id);
      ids = ids ? ids.filter((id) => matching.includes(id)) : matching;
    }
    const rest = filters.filter((f) => f.name !== 'placement-group-name' && f.name !== 'instance-id');
    return withFilters(params, [...rest, { name: 'instance-id', values: ids && ids.length > 0 ? ids : [NO_INSTANCE] }]);
  }

  /** Fill `<placement><groupName/>` (moto leaves it empty) of instances launched into a group: RunInstances and DescribeInstances bodies. */
  patchInstancesXml(body: string, region: string): string {
    const placements = this.placements.get(region);
    if (!placements?.size) return body;
    return body.replace(/<instancesSet>([\s\S]*?)<\/instancesSet>/g, (_, inner: string) => {
      const patched = topLevelItems(inner).map((item) => {
        const id = /<instanceId>([^<]+)<\/instanceId>/.exec(item)?.[1];
        const group = id ? placements.get(id) : undefined;
        if (!group) return item;
        return item.replace(/<placement>([\s\S]*?)<\/placement>/, (_m, fields: string) => {
          const rest = fields.replace(/<groupName\/>|<groupName>[^<]*<\/groupName>|<groupId\/>|<groupId>[^<]*<\/groupId>/g, '');
          return `<placement><groupName>${xml(group.name)}</groupName><groupId>${group.id}</groupId>${rest}</placement>`;
        });
      });
      return `<instancesSet>${patched.join('')}</instancesSet>`;
    });
  }
}

function unknownGroup(name: string): Reply {
  return ec2Error('InvalidPlacementGroup.Unknown', `The Placement Group '${name}' is unknown.`);
}

function groupMatches(group: PlacementGroupRecord, filter: QueryFilter): boolean {
  const byTag = tagFilterMatches(filter, group.tags);
  if (byTag !== undefined) return byTag;
  const value = { 'group-name': group.name, 'group-arn': group.arn, state: group.state, strategy: group.strategy, 'spread-level': group.spreadLevel ?? '' }[filter.name] ?? '';
  return filter.values.some((v) => filterValueMatches(v, value));
}

function groupXml(group: PlacementGroupRecord): string {
  return [
    `<groupName>${xml(group.name)}</groupName>`,
    `<state>${group.state}</state>`,
    `<strategy>${group.strategy}</strategy>`,
    group.partitionCount !== undefined ? `<partitionCount>${group.partitionCount}</partitionCount>` : '',
    `<groupId>${group.id}</groupId>`,
    tagSetXml(group.tags),
    `<groupArn>${xml(group.arn)}</groupArn>`,
    group.spreadLevel ? `<spreadLevel>${group.spreadLevel}</spreadLevel>` : '',
  ].join('');
}

/** The direct `<item>` children of a set, nested items kept inside their parent. */
function topLevelItems(inner: string): string[] {
  const items: string[] = [];
  const re = /<item\/>|<item>|<\/item>/g;
  let depth = 0;
  let start = 0;
  for (let m = re.exec(inner); m; m = re.exec(inner)) {
    if (m[0] === '<item/>') {
      if (depth === 0) items.push(m[0]);
    } else if (m[0] === '<item>') {
      if (depth++ === 0) start = m.index;
    } else if (--depth === 0) {
      items.push(inner.slice(start, re.lastIndex));
    }
  }
  return items;
}
