import { isPlainObject } from '../matrix/placeholders.js';
import type { Path, Problems } from './problems.js';

/**
 * netbench clouds a PKB VM can become. PKB's `Docker` (a container on this
 * machine) becomes a `cloud: docker` host; `local` (the namespace lab) is
 * never the target of a PKB cloud, but a translation may hold it.
 */
export type NativeCloud = 'gcp' | 'aws' | 'azure' | 'static' | 'local' | 'docker';

const CLOUDS: Readonly<Record<string, NativeCloud>> = { gcp: 'gcp', aws: 'aws', azure: 'azure', docker: 'docker', static: 'static' };

/** PKB's cloud name (`GCP`, `AWS`, `Azure`, `Docker`; any case) to a netbench cloud. */
export function nativeCloud(pkbCloud: string): NativeCloud | undefined {
  return CLOUDS[pkbCloud.toLowerCase()];
}

/** The key a `vm_spec` uses for a cloud, as PKB spells it. */
export function vmSpecKey(cloud: NativeCloud): string {
  return { gcp: 'GCP', aws: 'AWS', azure: 'Azure', local: 'Local', docker: 'Docker', static: 'Static' }[cloud];
}

/**
 * PKB's `default_single_core` vm_spec (configs/default_config_constants.yaml),
 * used when a config names no machine type or zone for a VM.
 */
export const PKB_DEFAULT_VM: Readonly<Record<NativeCloud, Readonly<Record<string, string>>>> = {
  gcp: { machine_type: 'n1-standard-1', zone: 'us-central1-a' },
  aws: { machine_type: 't2.small', zone: 'us-east-1' },
  azure: { machine_type: 'Standard_A1', zone: 'eastus2' },
  local: {},
  docker: {},
  static: {},
};

/**
 * vm_spec keys each cloud plugin takes, and its field name. The names follow
 * packages/plugins/<cloud>/src/host-schema.ts.
 */
const VM_SPEC_FIELDS: Readonly<Record<NativeCloud, Readonly<Record<string, string>>>> = {
  gcp: { machine_type: 'machineType', zone: 'zone', project: 'project', image: 'image', image_project: 'imageProject', image_family: 'imageFamily', boot_disk_type: 'diskType' },
  aws: { machine_type: 'machineType', zone: 'zone', image: 'image', boot_disk_size: 'diskGb' },
  azure: { machine_type: 'machineType', zone: 'zone', image: 'image' },
  local: {},
  // PKB's DockerVmSpec: docker_cpus and docker_memory_mb (its image is a base OS, not the tools image: see mapVmSpec).
  docker: { docker_cpus: 'cpus', docker_memory_mb: 'memory' },
  static: {},
};

/** `static_vms` entries to `cloud: static` host fields. */
export const STATIC_FIELDS: Readonly<Record<string, string>> = {
  ip_address: 'address',
  user_name: 'user',
  ssh_private_key: 'key',
  ssh_port: 'port',
  internal_ip: 'internalAddress',
  zone: 'zone',
};

/** vm_spec / static_vms keys PKB uses that do not change network results; read, then ignored with a note. */
const HARMLESS_KEYS = new Set(['boot_disk_size', 'boot_disk_type', 'num_local_ssds', 'os_type', 'tag', 'disk_specs', 'image', 'image_project', 'image_family']);

export interface MappedFields {
  readonly fields: Record<string, unknown>;
  /** Native field → PKB path it came from. */
  readonly origins: [string, Path][];
  /** PKB's `install_packages` of the VM, and where it is written. */
  install?: InstallSetting;
}

/** PKB's `install_packages` (a VM attribute): netbench's run-wide `options.install`. */
export interface InstallSetting {
  readonly value: boolean;
  readonly path: Path;
}

/** Reads `install_packages`, which PKB takes as a boolean. */
export function readInstallPackages(value: unknown, path: Path, problems: Problems): InstallSetting | undefined {
  if (typeof value === 'boolean') return { value, path };
  problems.error(path, 'install_packages is true or false');
  return undefined;
}

/** Map one VM's vm_spec (for its cloud) onto the plugin's host fields. */
export function mapVmSpec(cloud: NativeCloud, spec: Record<string, unknown>, base: Path, problems: Problems): MappedFields {
  const names = VM_SPEC_FIELDS[cloud];
  const fields: Record<string, unknown> = {};
  const origins: [string, Path][] = [];
  let install: InstallSetting | undefined;
  for (const [key, value] of Object.entries(spec)) {
    const path = [...base, key];
    if (value === null || value === undefined) continue;
    if (key === 'install_packages') {
      install = readInstallPackages(value, path, problems);
      continue;
    }
    if (key === 'machine_type' && isPlainObject(value)) {
      const custom = customMachineType(cloud, value, path, problems);
      if (custom) {
        fields.machineType = custom;
        origins.push(['machineType', path]);
      }
      continue;
    }
    const field = names[key];
    if (field) {
      // The docker plugin takes Docker's size syntax; PKB gives mebibytes.
      fields[field] = cloud === 'docker' && key === 'docker_memory_mb' ? `${String(value)}m` : value;
      origins.push([field, path]);
    } else if (cloud === 'docker') {
      problems.warn(path, `ignored: netbench's docker hosts run the tools image (netbench/tools:bookworm, or image: of your own), with no '${key}'`);
    } else if (cloud === 'local') {
      problems.warn(path, `ignored: the local lab has no '${key}'`);
    } else if (!HARMLESS_KEYS.has(key)) {
      problems.warn(path, `vm_spec '${key}' has no ${cloud} host field in netbench; ignored`);
    }
  }
  return { fields, origins, ...(install ? { install } : {}) };
}

/** GCP custom machine types (`{cpus: 4, memory: 16GiB}`) are named `custom-CPUS-MIB`. */
function customMachineType(cloud: NativeCloud, value: Record<string, unknown>, path: Path, problems: Problems): string | undefined {
  if (cloud !== 'gcp') {
    problems.error(path, `a machine_type of {cpus, memory} is a GCP custom machine type; ${cloud} needs a machine type name`);
    return undefined;
  }
  const cpus = Number(value.cpus);
  const mib = memoryMiB(value.memory);
  if (!Number.isInteger(cpus) || cpus < 1 || mib === undefined) {
    problems.error(path, 'a custom machine type needs cpus (an integer) and memory (e.g. 7.5GiB or 7680MiB)');
    return undefined;
  }
  return `custom-${cpus}-${mib}`;
}

function memoryMiB(memory: unknown): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(GiB|MiB|GB|MB)$/i.exec(String(memory ?? '').trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] as string).toLowerCase();
  const mib = unit.startsWith('g') ? amount * 1024 : amount;
  return Number.isInteger(mib) ? mib : undefined;
}

/** PKB's `placement_group_style` to the plugin's `placement` value, where the cloud has one. */
export function placementValue(cloud: NativeCloud, style: string): string | undefined {
  const cluster = style === 'cluster' || style === 'cluster_if_supported' || style === 'closest_supported';
  if (!cluster) return undefined;
  if (cloud === 'gcp') return 'compact';
  if (cloud === 'aws') return 'cluster';
  if (cloud === 'azure') return 'proximity';
  return undefined;
}

/** The region part of a literal zone (`us-east1-b` → `us-east1`, `us-east-1a` → `us-east-1`, `eastus2-1` → `eastus2`). */
export function regionOfZone(cloud: NativeCloud, zone: string): string {
  if (cloud === 'gcp') return zone.replace(/-[a-z]$/, '');
  if (cloud === 'aws') return zone.replace(/[a-z]$/, '');
  if (cloud === 'azure') return zone.replace(/-\d+$/, '');
  return zone;
}

/** AWS hosts need an availability zone; PKB also takes a region (and lets AWS choose). */
export const AWS_REGION_RE = /^[a-z]{2}(?:-[a-z]+)+-\d+$/;
