import type { CloudPlugin, DiagnosticCheck } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { linkRateShaping } from '@netbench/plugin-api/cloud-kit';
import { shapingCapabilities } from './capabilities.js';
import { cleanupLeftovers } from './cleanup.js';
import { daemonAddress, daemonVersion, dockerClient, isNotFound } from './docker-client.js';
import { DEFAULT_IMAGE, type DockerHostConfig, hostSchema } from './host-schema.js';
import { checkRequests } from './preflight.js';
import { PLUGIN_NAME, provisionContainers } from './provision.js';
import { reattachContainers } from './reattach.js';
import { teardownResource } from './teardown.js';

async function diagnose(): Promise<DiagnosticCheck[]> {
  const docker = dockerClient();
  const checks: DiagnosticCheck[] = [];
  const version = await daemonVersion(docker).then(
    (v) => v,
    (error: Error) => error,
  );
  if (version instanceof Error) {
    checks.push({
      name: 'Docker daemon',
      ok: false,
      detail: version.message,
      severity: 'warning',
      fix: 'start dockerd (systemctl start docker, or scripts/dockerd.sh start) or set DOCKER_HOST',
    });
    return checks;
  }
  checks.push({ name: 'Docker daemon', ok: true, detail: `Docker ${version.version} (API ${version.apiVersion}) at ${daemonAddress()}` });
  const image = await docker
    .getImage(DEFAULT_IMAGE)
    .inspect()
    .then(
      () => true,
      (error) => (isNotFound(error) ? false : Promise.reject(error)),
    );
  checks.push({
    name: `image ${DEFAULT_IMAGE}`,
    ok: image,
    detail: image ? 'present' : 'not built (netbench pulls no images)',
    severity: 'warning',
    fix: 'scripts/docker-image.sh, or set image: on docker hosts',
  });
  const caps = await shapingCapabilities();
  checks.push({ name: 'tc tbf (docker link.rate)', ok: caps.tbf, detail: caps.detail.tbf ?? '', severity: 'warning', fix: 'run as root; modprobe sch_tbf' });
  return checks;
}

/** `cloud: docker`: hosts are containers on a per-run bridge network (or the host network), reached through Docker exec. */
const plugin: CloudPlugin<DockerHostConfig> = {
  kind: 'cloud',
  name: PLUGIN_NAME,
  version: '0.1.0',
  description: 'Hosts are Docker containers on a per-run network, through the Docker Engine API (no sshd)',
  hostSchema,
  linkShaping: (config) => linkRateShaping(config.link),
  async preflight(requests) {
    await checkRequests(dockerClient(), requests);
  },
  async provision(requests, ctx) {
    const docker = dockerClient();
    // Checked again here: provision must create nothing for a request preflight would refuse.
    const { daemon } = await checkRequests(docker, requests);
    ctx.log.debug(`docker: ${daemon} at ${daemonAddress()}`);
    return provisionContainers(docker, requests, ctx);
  },
  async reattach(requests, ctx) {
    // The containers of an earlier invocation of this run: found from the ledger, verified by inspect (running, this run's labels).
    return reattachContainers(dockerClient(), requests, ctx);
  },
  async teardown(resource) {
    await teardownResource(dockerClient(), resource);
  },
  async cleanup(filter) {
    return cleanupLeftovers(dockerClient(), filter);
  },
  diagnose,
};

export const dockerPlugin = definePlugin(plugin);
