import type { HostRequest } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { DEFAULT_SUBNET, type LocalHostConfig } from './host-schema.js';
import { bridgeName, hubName, namespaceName, sanitizeHostId, vethName } from './naming.js';
import { formatIpv4, isHostAddress, parseIpv4, parseSubnet, type Subnet } from './subnet.js';

export interface PlannedHost {
  readonly request: HostRequest<LocalHostConfig>;
  readonly index: number;
  readonly netns: string;
  readonly veth: string;
  readonly address: string;
  /** Folder under the run dir for this host's files (keys, sshd config, pid list). */
  readonly dirName: string;
}

export interface LabPlan {
  readonly subnet: Subnet;
  readonly bridge: string;
  /** The namespace the bridge (and the bridge's ends of the veths) lives in. */
  readonly hub: string;
  readonly hosts: readonly PlannedHost[];
}

/** Names and addresses for every host, checked as a whole before anything is made. */
export function planLab(runId: string, requests: readonly HostRequest<LocalHostConfig>[]): LabPlan {
  const problems: string[] = [];
  const subnets = new Map<string, string[]>();
  for (const request of requests) {
    if (request.config.subnet === undefined) continue;
    const normal = parseSubnet(request.config.subnet)?.text ?? request.config.subnet;
    subnets.set(normal, [...(subnets.get(normal) ?? []), request.id]);
  }
  if (subnets.size > 1) {
    const list = [...subnets].map(([subnet, hosts]) => `${subnet} (${hosts.join(', ')})`).join(' vs ');
    throw new NetbenchError(`local hosts of one run must share one subnet, got ${list}; set the same subnet on every local host or leave it out (default ${DEFAULT_SUBNET})`);
  }
  const subnetText = [...subnets.keys()][0] ?? DEFAULT_SUBNET;
  const subnet = parseSubnet(subnetText);
  if (!subnet) throw new NetbenchError(`local: invalid subnet ${subnetText}`);

  const taken = new Map<number, string>();
  for (const request of requests) {
    if (request.config.address === undefined) continue;
    const address = parseIpv4(request.config.address);
    if (address === undefined || !isHostAddress(subnet, address)) {
      problems.push(`host ${request.id}: address ${request.config.address} is not a host address of subnet ${subnet.text}`);
    } else if (taken.has(address)) {
      problems.push(`host ${request.id}: address ${request.config.address} is already used by host ${taken.get(address)}`);
    } else {
      taken.set(address, request.id);
    }
  }
  if (problems.length > 0) throw new NetbenchError(`local: ${problems.join('; ')}`);

  let next = subnet.network + 1;
  const usedDirs = new Set<string>();
  const hosts = requests.map((request, index): PlannedHost => {
    let address = request.config.address !== undefined ? parseIpv4(request.config.address) : undefined;
    if (address === undefined) {
      while (taken.has(next)) next += 1;
      if (!isHostAddress(subnet, next)) {
        throw new NetbenchError(`local: subnet ${subnet.text} has no free address left for host ${request.id} (${requests.length} hosts)`);
      }
      address = next;
      taken.set(address, request.id);
    }
    // Host ids that differ only in characters a namespace name cannot hold get the index appended.
    let dirName = sanitizeHostId(request.id);
    if (usedDirs.has(dirName)) dirName = `${dirName}-${index}`;
    usedDirs.add(dirName);
    return {
      request,
      index,
      netns: namespaceName(runId, dirName),
      veth: vethName(runId, index),
      address: formatIpv4(address),
      dirName,
    };
  });
  return { subnet, bridge: bridgeName(runId), hub: hubName(runId), hosts };
}
