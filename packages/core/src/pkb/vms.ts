import { isPlainObject } from '../matrix/placeholders.js';
import { type PkbFlags, readString, readStringList } from './flags.js';
import { AWS_REGION_RE, type InstallSetting, mapVmSpec, type NativeCloud, nativeCloud, PKB_DEFAULT_VM, placementValue, readInstallPackages, STATIC_FIELDS } from './host-fields.js';
import type { Path, Problems } from './problems.js';

/** One VM of a PKB benchmark, as a native host. */
export interface PkbVm {
  /** Native host name (the group name, or `group_N` when the group has several VMs). */
  readonly host: string;
  readonly group: string;
  readonly cloud: NativeCloud;
  readonly fields: Record<string, unknown>;
  /** Native field → PKB path, for error positions. */
  readonly origins: readonly [string, Path][];
  /** The group's path in the PKB document. */
  readonly path: Path;
  /** Literal zone or `${var}`, for deciding whether internal addresses are reachable. */
  readonly zone?: string;
  readonly cidr?: string;
  /** A static VM with an `internal_ip`. */
  readonly internalIp: boolean;
  /** PKB's `install_packages` of the VM, when written. */
  readonly install?: InstallSetting;
}

const GROUP_KEYS = new Set(['cloud', 'vm_spec', 'vm_count', 'static_vms', 'cidr', 'disk_spec', 'disk_count', 'os_type']);
const HOST_NAME_RE = /[^A-Za-z0-9_-]/g;

interface ZoneSlot {
  readonly value: string;
  readonly path: Path;
}

/**
 * The VMs of a benchmark config in PKB's order: groups sorted by name, each
 * group's static VMs first, then `vm_count` made VMs. User groups are merged
 * over the benchmark's default groups (`vm_1`, `vm_2`, ...), as PKB merges a
 * user config over the benchmark's own. Zones from `zones`, `extra_zones` and
 * `zone` are handed to made VMs in turn, cycling (PKB's
 * `ConstructVirtualMachines`): VM 1 gets the first, VM 2 the next.
 */
export interface VmSource {
  /** The groups as written (`vm_groups`), or undefined for the benchmark's defaults only. */
  readonly groups: unknown;
  /** Where they are written. */
  readonly groupsPath: Path;
  /** Where one group is written (container_cluster is one group written at its own key). */
  readonly groupPath?: (name: string) => Path;
  /** The benchmark's default groups `vm_1` .. `vm_N`. */
  readonly defaultGroups: number;
  /** Prefix of host names, when one spec holds several PKB benchmarks. */
  readonly prefix: string;
}

export function readVms(source: VmSource, flags: PkbFlags, problems: Problems): PkbVm[] {
  const { groupsPath, defaultGroups, prefix } = source;
  const userGroups = source.groups;
  if (userGroups !== undefined && userGroups !== null && !isPlainObject(userGroups)) {
    problems.error(groupsPath, 'vm_groups must map group names to VM groups');
    return [];
  }
  const groups = new Map<string, Record<string, unknown>>();
  for (let i = 1; i <= defaultGroups; i++) groups.set(`vm_${i}`, {});
  for (const [name, group] of Object.entries(isPlainObject(userGroups) ? userGroups : {})) {
    if (group !== null && !isPlainObject(group)) problems.error([...groupsPath, name], 'a VM group is a mapping (cloud, vm_spec, vm_count, static_vms, ...)');
    else groups.set(name, group ?? {});
  }

  const zones = zoneSlots(flags, problems);
  const cloudFlag = flags.get('cloud');
  const machineType = flags.get('machine_type');
  const vms: PkbVm[] = [];
  let zoneIndex = 0;
  const groupPaths = new Map<string, Path>();
  for (const name of [...groups.keys()].sort()) {
    const group = groups.get(name) as Record<string, unknown>;
    const path = source.groupPath?.(name) ?? [...groupsPath, name];
    for (const key of Object.keys(group)) if (!GROUP_KEYS.has(key)) problems.warn([...path, key], `vm group key '${key}' is not used by netbench; ignored`);
    if (group.disk_spec !== undefined || group.disk_count !== undefined)
      problems.warn([...path, group.disk_spec !== undefined ? 'disk_spec' : 'disk_count'], 'ignored: network benchmarks use no scratch disks');
    if (group.os_type !== undefined) problems.warn([...path, 'os_type'], 'ignored: netbench hosts run the current Ubuntu LTS unless a plugin field says otherwise');

    const cloud = groupCloud(group, path, cloudFlag, problems);
    if (!cloud) continue;
    groupPaths.set(name, path);
    const count = vmCount(group, path, problems);
    const statics = staticVms(group, path, count, problems);
    const made = Math.max(0, count - statics.length);
    const total = statics.length + made;
    const hostName = (i: number) => `${prefix}${name.replace(HOST_NAME_RE, '_')}${total > 1 ? `_${i + 1}` : ''}`;

    statics.forEach((vm, i) => vms.push({ ...vm, host: hostName(i), group: name }));
    for (let i = 0; i < made; i++) {
      const zone = zones.length > 0 ? zones[zoneIndex % zones.length] : undefined;
      if (zones.length > 0) zoneIndex++;
      vms.push(madeVm(group, path, cloud, hostName(statics.length + i), name, zone, machineType, flags, problems));
    }
  }
  return withPublicAddresses(vms, groupPaths);
}

/**
 * A PKB Docker VM talks to VMs on other clouds from this machine, through
 * Docker's NAT: their firewalls must admit this machine's public address,
 * which the docker plugin finds at provision (`publicAddress: auto`).
 */
function withPublicAddresses(vms: PkbVm[], groupPaths: ReadonlyMap<string, Path>): PkbVm[] {
  if (!vms.some((vm) => vm.cloud !== 'docker')) return vms;
  return vms.map((vm) => {
    if (vm.cloud !== 'docker') return vm;
    const from = groupPaths.get(vm.group) ?? vm.path;
    return { ...vm, fields: { ...vm.fields, publicAddress: 'auto' }, origins: [...vm.origins, ['publicAddress', from]] };
  });
}

function zoneSlots(flags: PkbFlags, problems: Problems): ZoneSlot[] {
  const slots: ZoneSlot[] = [];
  for (const name of ['zones', 'extra_zones', 'zone']) {
    const flag = flags.get(name);
    if (!flag) continue;
    const read = readStringList(flag, problems);
    if (read.ok) slots.push(...read.value.map((value) => ({ value, path: flag.path })));
  }
  return slots;
}

function groupCloud(group: Record<string, unknown>, path: Path, cloudFlag: ReturnType<PkbFlags['get']>, problems: Problems): NativeCloud | undefined {
  let written = group.cloud;
  let where: Path = [...path, 'cloud'];
  if (cloudFlag) {
    if (cloudFlag.kind === 'axis') {
      problems.error(cloudFlag.path, 'cloud cannot be a matrix axis in netbench: a host has one cloud (make one config per cloud)');
      return undefined;
    }
    // PKB applies a `cloud` flag to every group, over the group's own `cloud`.
    if (written !== undefined && String(written).toLowerCase() !== String(cloudFlag.value).toLowerCase()) {
      problems.warn(where, `flags.cloud (${String(cloudFlag.value)}) overrides this group's cloud, as in PKB`);
    }
    written = cloudFlag.value;
    where = cloudFlag.path;
  }
  const name = written === undefined || written === null ? 'GCP' : String(written);
  const cloud = nativeCloud(name);
  if (!cloud) {
    problems.error(where, `cloud '${name}' has no netbench plugin (netbench clouds: GCP, AWS, Azure, Docker; static VMs via static_vms)`);
    return undefined;
  }
  return cloud;
}

function vmCount(group: Record<string, unknown>, path: Path, problems: Problems): number {
  const count = group.vm_count ?? 1;
  if (typeof count === 'number' && Number.isInteger(count) && count >= 0) return count;
  problems.error([...path, 'vm_count'], 'vm_count must be a whole number');
  return 0;
}

type StaticVm = Omit<PkbVm, 'host' | 'group'>;

function staticVms(group: Record<string, unknown>, path: Path, count: number, problems: Problems): StaticVm[] {
  let entries = group.static_vms;
  const listPath = [...path, 'static_vms'];
  if (entries === undefined || entries === null) return [];
  if (isPlainObject(entries)) {
    problems.warn(listPath, 'PKB expects static_vms to be a list; read as a list of one VM (write "- ip_address: ...")');
    entries = [entries];
  }
  if (!Array.isArray(entries)) {
    problems.error(listPath, 'static_vms must be a list of VMs');
    return [];
  }
  // PKB uses at most vm_count static VMs of a group.
  return entries.slice(0, count).flatMap((entry, i): StaticVm[] => {
    const entryPath: Path = Array.isArray(group.static_vms) ? [...listPath, i] : listPath;
    if (!isPlainObject(entry)) {
      problems.error(entryPath, 'a static VM is a mapping (ip_address, user_name, ssh_private_key, ...)');
      return [];
    }
    const fields: Record<string, unknown> = {};
    const origins: [string, Path][] = [];
    let install: InstallSetting | undefined;
    for (const [key, value] of Object.entries(entry)) {
      const field = STATIC_FIELDS[key];
      if (key === 'install_packages') {
        install = readInstallPackages(value, [...entryPath, key], problems);
      } else if (field) {
        fields[field] = value;
        origins.push([field, [...entryPath, key]]);
      } else if (key === 'password') {
        problems.warn([...entryPath, key], 'password login is not supported; give ssh_private_key (or load the key into ssh-agent)');
      } else {
        problems.warn([...entryPath, key], `static VM key '${key}' is not used by netbench; ignored`);
      }
    }
    if (entry.ip_address === undefined) problems.error(entryPath, 'a static VM needs ip_address (the address netbench connects to over SSH)');
    const zone = typeof entry.zone === 'string' ? entry.zone : undefined;
    return [{ cloud: 'static', fields, origins, path: entryPath, ...(zone ? { zone } : {}), internalIp: entry.internal_ip !== undefined, ...(install ? { install } : {}) }];
  });
}

function madeVm(
  group: Record<string, unknown>,
  path: Path,
  cloud: NativeCloud,
  host: string,
  groupName: string,
  zone: ZoneSlot | undefined,
  machineType: ReturnType<PkbFlags['get']>,
  flags: PkbFlags,
  problems: Problems,
): PkbVm {
  const specPath = [...path, 'vm_spec'];
  const specs = group.vm_spec;
  if (specs !== undefined && specs !== null && !isPlainObject(specs)) problems.error(specPath, 'vm_spec maps cloud names (GCP, AWS, Azure) to machine settings');
  const specKey = isPlainObject(specs) ? Object.keys(specs).find((key) => nativeCloud(key) === cloud) : undefined;
  const written = specKey && isPlainObject(specs) ? specs[specKey] : undefined;
  if (specKey !== undefined && written !== null && !isPlainObject(written)) problems.error([...specPath, specKey], 'a vm_spec entry is a mapping (machine_type, zone, ...)');
  const spec = { ...PKB_DEFAULT_VM[cloud], ...(isPlainObject(written) ? written : {}) };
  const mapped = mapVmSpec(cloud, spec, specKey ? [...specPath, specKey] : path, problems);
  const fields = { ...mapped.fields };
  const origins: [string, Path][] = mapped.origins.map(([field, from]) => [field, Object.hasOwn(isPlainObject(written) ? written : {}, originKey(from)) ? from : path]);

  if (cloud !== 'local' && cloud !== 'docker') {
    if (zone) {
      fields.zone = zone.value;
      origins.push(['zone', zone.path]);
    }
    if (machineType) {
      const read = readString(machineType, problems);
      if (read.ok) {
        fields.machineType = read.value;
        origins.push(['machineType', machineType.path]);
      }
    }
  }
  if (cloud === 'aws' && typeof fields.zone === 'string' && AWS_REGION_RE.test(fields.zone)) {
    problems.warn(pathOf(origins, 'zone', path), `AWS zone '${fields.zone}' is a region; netbench needs an availability zone and uses ${fields.zone}a`);
    fields.zone = `${fields.zone}a`;
  }
  const cidr = typeof group.cidr === 'string' ? group.cidr : undefined;
  if (cidr !== undefined) {
    if (cloud === 'gcp' || cloud === 'azure') {
      fields.cidr = cidr;
      origins.push(['cidr', [...path, 'cidr']]);
    } else {
      problems.warn([...path, 'cidr'], `${cloud} hosts have no per-host subnet range in netbench; cidr ignored`);
    }
  }
  applyCloudFlags(cloud, fields, origins, flags, problems);
  return {
    host,
    group: groupName,
    cloud,
    fields,
    origins,
    path,
    ...(typeof fields.zone === 'string' ? { zone: fields.zone } : {}),
    ...(cidr ? { cidr } : {}),
    internalIp: true,
    ...(mapped.install ? { install: mapped.install } : {}),
  };
}

/** Flags that set a field of every host of one cloud. */
function applyCloudFlags(cloud: NativeCloud, fields: Record<string, unknown>, origins: [string, Path][], flags: PkbFlags, problems: Problems): void {
  const set = (field: string, name: string, value: unknown) => {
    fields[field] = value;
    origins.push([field, flags.pathOf(name)]);
  };
  const string = (name: string): string | undefined => {
    const flag = flags.has(name) ? flags.get(name) : undefined;
    if (!flag) return undefined;
    const read = readString(flag, problems);
    return read.ok ? read.value : undefined;
  };
  if (cloud === 'gcp') {
    const tier = string('gce_network_tier');
    if (tier !== undefined) set('networkTier', 'gce_network_tier', tier.startsWith('${') ? tier : tier.toLowerCase());
    const network = string('gce_network_name');
    if (network !== undefined) set('network', 'gce_network_name', network);
    const project = string('project');
    if (project !== undefined) set('project', 'project', project);
  }
  const style = string('placement_group_style');
  if (style !== undefined && cloud !== 'static' && cloud !== 'local' && cloud !== 'docker') {
    const placement = placementValue(cloud, style.toLowerCase());
    if (placement) set('placement', 'placement_group_style', placement);
    else if (style.toLowerCase() !== 'none')
      problems.warn(
        flags.pathOf('placement_group_style'),
        `placement_group_style '${style}' has no ${cloud} equivalent in netbench (only cluster placement); ignored for ${cloud} hosts`,
      );
  }
}

function originKey(path: Path): string {
  return String(path[path.length - 1]);
}

function pathOf(origins: readonly [string, Path][], field: string, fallback: Path): Path {
  return origins.findLast(([name]) => name === field)?.[1] ?? fallback;
}
