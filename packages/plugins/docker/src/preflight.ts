import type { HostRequest } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import { linkNetemFields, missingChildQdiscs, qdiscProblem } from '@netbench/plugin-api/cloud-kit';
import type Docker from 'dockerode';
import { shapingCapabilities } from './capabilities.js';
import { checkCongestionControl } from './congestion-control.js';
import { daemonAddress, daemonVersion, isNotFound } from './docker-client.js';
import { DEFAULT_IMAGE, type DockerHostConfig } from './host-schema.js';

const hostsWith = (requests: readonly HostRequest<DockerHostConfig>[], fields: (r: HostRequest<DockerHostConfig>) => string[]) =>
  requests
    .map((r) => ({ id: r.id, fields: fields(r) }))
    .filter((r) => r.fields.length > 0)
    .map((r) => `host ${r.id} (${r.fields.join(', ')})`);

const linkFields = (r: HostRequest<DockerHostConfig>) =>
  Object.entries(r.config.link ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k]) => `link.${k}`);

export const imageOf = (request: HostRequest<DockerHostConfig>) => request.config.image ?? DEFAULT_IMAGE;

/**
 * Everything that can be known before creating anything: the daemon answers,
 * every image is on this machine (nothing is ever pulled), and shaping is
 * possible where a host asks for it. Throws `UnsupportedError` naming the
 * host, the field and what to do.
 */
export async function checkRequests(docker: Docker, requests: readonly HostRequest<DockerHostConfig>[]): Promise<{ daemon: string }> {
  const version = await daemonVersion(docker);
  for (const image of new Set(requests.map(imageOf))) {
    try {
      await docker.getImage(image).inspect();
    } catch (error) {
      if (!isNotFound(error)) throw error;
      const users = requests
        .filter((r) => imageOf(r) === image)
        .map((r) => r.id)
        .join(', ');
      const how =
        image === DEFAULT_IMAGE
          ? 'build it with scripts/docker-image.sh (Debian bookworm from mmdebstrap, with ping, netperf and iperf3)'
          : 'build or load it first (docker build, docker import, docker load), or set image: to one you have';
      throw new UnsupportedError(`docker: image ${image} (hosts ${users}) is not on the Docker daemon at ${daemonAddress()}, and netbench pulls no images: ${how}`);
    }
  }

  await checkCongestionControl(requests);
  const shaped = requests.filter((r) => linkFields(r).length > 0);
  const onHostNetwork = hostsWith(shaped, (r) => (r.config.network === 'host' ? linkFields(r) : []));
  if (onHostNetwork.length > 0) {
    throw new UnsupportedError(
      `docker: ${onHostNetwork.join('; ')} asks for link shaping on network: host, where it would shape this machine's own interfaces. To fix: use network: bridge (the default) or remove link.`,
    );
  }
  if (shaped.length > 0) {
    const remote = process.env.DOCKER_HOST !== undefined && !process.env.DOCKER_HOST.startsWith('unix://');
    if (remote) {
      throw new UnsupportedError(
        `docker: ${hostsWith(shaped, linkFields).join('; ')} asks for link shaping, which runs tc on this machine, but DOCKER_HOST (${process.env.DOCKER_HOST}) is another machine. To fix: run netbench where dockerd runs, or remove link.`,
      );
    }
    const caps = await shapingCapabilities();
    if (!caps.root) {
      throw new UnsupportedError(
        `docker: ${hostsWith(shaped, linkFields).join('; ')} asks for link shaping, which needs root (tc on the container's veth): ${caps.detail.root}. To fix: run netbench as root, or remove link.`,
      );
    }
    const rated = hostsWith(shaped, (r) =>
      ((r.config.link?.qdisc ?? 'tbf') !== 'tbf' ? [] : ['rate', 'ingressRate']).filter((f) => r.config.link?.[f as 'rate'] !== undefined).map((f) => `link.${f}`),
    );
    if (rated.length > 0 && !caps.tbf) {
      throw new UnsupportedError(
        `docker: ${rated.join('; ')} needs the kernel's tbf queueing discipline (sch_tbf): ${caps.detail.tbf}. To fix: modprobe sch_tbf or remove the rate.`,
      );
    }
    // fq_codel, pie and fq queue under an htb class at the rate.
    const htb = hostsWith(shaped, (r) => (['htb', 'fq_codel', 'pie', 'fq'].includes(r.config.link?.qdisc ?? '') ? [`link.qdisc: ${r.config.link!.qdisc}`] : []));
    const htbProblem = htb.length > 0 ? await qdiscProblem('htb') : undefined;
    if (htbProblem !== undefined)
      throw new UnsupportedError(`docker: ${htb.join('; ')} needs the kernel's htb queueing discipline (sch_htb): ${htbProblem}. To fix: modprobe sch_htb or use qdisc: tbf.`);
    const missing = await missingChildQdiscs(
      'docker',
      shaped.map((r) => ({ id: r.id, ...(r.config.link ? { link: r.config.link } : {}) })),
    );
    if (missing !== undefined) throw new UnsupportedError(missing);
    const netem = hostsWith(shaped, (r) => linkNetemFields(r.config.link).map((f) => `link.${f}`));
    if (netem.length > 0 && !caps.netem) {
      throw new UnsupportedError(
        `docker: ${netem.join('; ')} needs the netem queueing discipline, but ${caps.detail.netem}. ` +
          'To fix: load it (modprobe sch_netem), use a kernel built with CONFIG_NET_SCH_NETEM, or remove the netem fields (link.rate alone works, with tbf).',
      );
    }
  }
  return { daemon: `Docker ${version.version} (API ${version.apiVersion})` };
}
