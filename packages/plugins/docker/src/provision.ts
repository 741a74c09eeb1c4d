import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { CPU_COUNT_LABEL, detectPublicAddress, linkEgressCommands, linkIngressCommands, linkLabels, mustRun, readCpuCount } from '@netbench/plugin-api/cloud-kit';
import type Docker from 'dockerode';
import { allowForContainers, containerSysctls, explainStartFailure, labelCongestionControl } from './congestion-control.js';
import { execHost } from './exec-host.js';
import type { DockerHostConfig } from './host-schema.js';
import { parseMemory } from './host-schema.js';
import { bridgeInterfaceName, containerName, networkName, runLabels, sanitizeHostId } from './naming.js';
import { imageOf } from './preflight.js';

export const PLUGIN_NAME = 'docker';

const onBridge = (request: HostRequest<DockerHostConfig>) => request.config.network !== 'host';

/** The run's user-defined bridge network; its Linux bridge is named after the run tag so `ip link` shows whose it is. */
async function createNetwork(docker: Docker, runId: string): Promise<void> {
  await docker.createNetwork({
    Name: networkName(runId),
    Driver: 'bridge',
    CheckDuplicate: true,
    Labels: runLabels(runId),
    Options: { 'com.docker.network.bridge.name': bridgeInterfaceName(runId) },
  });
}

async function createContainer(docker: Docker, request: HostRequest<DockerHostConfig>, runId: string, name: string): Promise<void> {
  const { config } = request;
  const sysctls = containerSysctls(config);
  const container = await docker.createContainer({
    name,
    Image: imageOf(request),
    // The host only has to stay up; every command comes in through exec.
    Entrypoint: ['sleep'],
    Cmd: ['infinity'],
    Hostname: sanitizeHostId(request.name).slice(0, 63),
    Labels: runLabels(runId, request.id),
    HostConfig: {
      NetworkMode: onBridge(request) ? networkName(runId) : 'host',
      ...(config.cpus !== undefined ? { NanoCpus: Math.round(config.cpus * 1e9) } : {}),
      ...(config.memory !== undefined ? { Memory: parseMemory(config.memory) } : {}),
      ...(config.cpuset !== undefined ? { CpusetCpus: config.cpuset } : {}),
      // Written into the container's network namespace by runc before its process starts.
      ...(sysctls ? { Sysctls: sysctls } : {}),
    },
  });
  await container.start().catch((error: unknown) => {
    throw explainStartFailure(request, error);
  });
}

/** The host side of the container's eth0: the veth whose ifindex is eth0's iflink. */
export async function hostVeth(pid: number): Promise<string> {
  const inside = JSON.parse(await mustRun(['nsenter', `--net=/proc/${pid}/ns/net`, 'ip', '-j', 'link', 'show', 'dev', 'eth0'])) as { link_index?: number }[];
  const peer = inside[0]?.link_index;
  if (peer === undefined) throw new Error(`the container's eth0 (pid ${pid}) is not a veth: no iflink`);
  const links = JSON.parse(await mustRun(['ip', '-j', 'link', 'show'])) as { ifindex: number; ifname: string }[];
  const veth = links.find((l) => l.ifindex === peer)?.ifname;
  if (!veth) throw new Error(`no interface with ifindex ${peer} (the peer of the container's eth0) in this namespace`);
  return veth;
}

/** Shape the container's link: its egress inside its namespace, its ingress on the host side of its veth. Both die with the container. */
async function shape(request: HostRequest<DockerHostConfig>, pid: number, labels: Record<string, string>): Promise<void> {
  const link = request.config.link;
  if (!link) return;
  for (const command of linkEgressCommands(['tc'], 'eth0', link)) await mustRun(['nsenter', `--net=/proc/${pid}/ns/net`, ...command]);
  const ingress = link.ingressRate !== undefined;
  if (ingress) {
    const veth = await hostVeth(pid);
    labels.veth = veth;
    for (const command of linkIngressCommands(['tc'], veth, link)) await mustRun(command);
  }
}

let detected: Promise<string> | undefined;

async function publicAddress(request: HostRequest<DockerHostConfig>, ctx: ProvisionContext): Promise<string | undefined> {
  const wanted = request.config.publicAddress;
  if (wanted !== 'auto') return wanted;
  detected ??= detectPublicAddress(ctx.signal).then((cidr) => cidr.replace(/\/32$/, ''));
  return detected;
}

async function osOf(host: Host): Promise<string | undefined> {
  const result = await host.exec(['cat', '/etc/os-release'], { timeoutMs: 30_000 }).catch(() => undefined);
  return result?.code === 0 ? /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(result.stdout)?.[1] : undefined;
}

async function provisionContainer(docker: Docker, request: HostRequest<DockerHostConfig>, ctx: ProvisionContext): Promise<Host> {
  const name = containerName(ctx.runId, request.id);
  await ctx.ledger.track({ type: 'container', id: name, host: request.id, data: { runId: ctx.runId } }, () => createContainer(docker, request, ctx.runId, name));
  const info = await docker.getContainer(name).inspect();
  return containerHost(docker, request, ctx, info, true);
}

/**
 * The `Host` of a running container of this run, from its inspect record.
 * `shapeNow`: apply the link shaping (provision); a reattach finds it in place
 * (tc lives as long as the container) and only names the veth again.
 */
export async function containerHost(
  docker: Docker,
  request: HostRequest<DockerHostConfig>,
  ctx: ProvisionContext,
  info: Docker.ContainerInspectInfo,
  shapeNow: boolean,
): Promise<Host> {
  const name = containerName(ctx.runId, request.id);
  const bridge = onBridge(request);
  const address = bridge ? info.NetworkSettings.Networks[networkName(ctx.runId)]?.IPAddress : '127.0.0.1';
  if (!address) throw new Error(`docker: container ${name} has no address on network ${networkName(ctx.runId)}`);
  const image = await docker.getImage(info.Image).inspect();
  const labels: Record<string, string> = {
    isolation: 'container',
    container: name,
    image: imageOf(request),
    // The image's content decides the tools' versions: the id names it exactly.
    image_id: image.Id.replace(/^sha256:/, '').slice(0, 12),
    network: bridge ? 'bridge' : 'host',
    ...(request.config.cpus !== undefined ? { cpus: String(request.config.cpus) } : {}),
    ...(request.config.cpuset !== undefined ? { cpuset: request.config.cpuset } : {}),
    ...(request.config.memory !== undefined ? { memory: request.config.memory } : {}),
    ...linkLabels(request.config.link),
  };
  if (shapeNow) await shape(request, info.State.Pid, labels);
  else if (request.config.link?.ingressRate !== undefined) labels.veth = await hostVeth(info.State.Pid);
  const externalIp = await publicAddress(request, ctx);
  const base = {
    docker,
    container: name,
    id: request.id,
    name: request.name,
    cloud: PLUGIN_NAME,
    zone: 'local',
    machineType: 'container',
    internalIp: address,
    externalIp,
    labels,
  };
  const os = await osOf(execHost(base));
  // CPUs the container's processes may use (its cpuset, else the machine's): how much placement matters (host_<role>_cpu_count).
  const cpus = await readCpuCount((argv) => execHost(base).exec(argv, { timeoutMs: 15_000 }));
  if (cpus !== undefined) labels[CPU_COUNT_LABEL] = cpus;
  // tcp_congestion_control: what the container's namespace uses (set at create, or inherited from the machine's default).
  await labelCongestionControl(execHost(base), request, labels);
  return execHost({ ...base, os });
}

/** The network (when a host is on a bridge), then each container, each tracked before it is made. */
export async function provisionContainers(docker: Docker, requests: readonly HostRequest<DockerHostConfig>[], ctx: ProvisionContext): Promise<Host[]> {
  await allowForContainers(requests, ctx);
  if (requests.some(onBridge)) {
    await ctx.ledger.track({ type: 'network', id: networkName(ctx.runId), data: { runId: ctx.runId } }, () => createNetwork(docker, ctx.runId));
  }
  const hosts: Host[] = [];
  for (const request of requests) {
    ctx.signal.throwIfAborted();
    hosts.push(await provisionContainer(docker, request, ctx));
  }
  return hosts;
}
