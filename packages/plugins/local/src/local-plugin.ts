import type { CloudPlugin, DiagnosticCheck } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { linkRateShaping } from '@netbench/plugin-api/cloud-kit';
import { localCapabilities } from './capabilities.js';
import { cleanupLeftovers } from './cleanup.js';
import { hostSchema, type LocalHostConfig } from './host-schema.js';
import { checkRequests } from './preflight.js';
import { PLUGIN_NAME, provisionLab } from './provision.js';
import { reattachLab } from './reattach.js';
import { teardownResource, teardownResources } from './teardown.js';

async function diagnose(): Promise<DiagnosticCheck[]> {
  const caps = await localCapabilities();
  return [
    {
      name: 'network namespaces',
      ok: caps.netns,
      detail: caps.detail.netns ?? '',
      severity: 'warning',
      fix: 'run as root (or with CAP_NET_ADMIN and CAP_SYS_ADMIN); otherwise local hosts fall back to 127.0.0.1',
    },
    { name: 'tc tbf (link.rate)', ok: caps.tbf, detail: caps.detail.tbf ?? '', severity: 'warning', fix: 'modprobe sch_tbf' },
    { name: 'tc htb', ok: caps.htb, detail: caps.detail.htb ?? '', severity: 'warning', fix: 'modprobe sch_htb' },
    {
      name: 'tc netem (link.delay, jitter, loss)',
      ok: caps.netem,
      detail: caps.detail.netem ?? '',
      severity: 'warning',
      fix: 'modprobe sch_netem (Ubuntu: apt-get install linux-modules-extra-$(uname -r))',
    },
  ];
}

/** `cloud: local`: a lab of Linux network namespaces on a bridge, with optional shaping and sshd. */
const plugin: CloudPlugin<LocalHostConfig> = {
  kind: 'cloud',
  name: PLUGIN_NAME,
  version: '0.1.0',
  description: 'Hosts are Linux network namespaces on a bridge (loopback without root)',
  hostSchema,
  // Namespaces of this machine: both ends of a trial share its CPUs.
  sharesMachineCpus: true,
  linkShaping: (config) => linkRateShaping(config.link),
  async preflight(requests, ctx) {
    await checkRequests(ctx.runId, requests);
  },
  async provision(requests, ctx) {
    // Checked again here: provision must create nothing for a request preflight would refuse.
    const { plan, caps } = await checkRequests(ctx.runId, requests);
    return provisionLab(plan, caps, ctx);
  },
  async reattach(requests, ctx) {
    return reattachLab(requests, ctx);
  },
  async teardown(resource) {
    await teardownResource(resource);
  },
  async teardownMany(resources) {
    return teardownResources(resources);
  },
  async cleanup(filter) {
    return cleanupLeftovers(filter);
  },
  diagnose,
};

export const localPlugin = definePlugin(plugin);
