import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CloudPlugin, DiagnosticCheck } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { CONNECTION, closeConnection } from './connections.js';
import { hostSchema, type StaticHostConfig } from './host-schema.js';
import { checkRequests } from './preflight.js';
import { provisionStatic } from './provision.js';

async function diagnose(): Promise<DiagnosticCheck[]> {
  const agent = process.env.SSH_AUTH_SOCK;
  const knownHosts = join(homedir(), '.ssh', 'known_hosts');
  return [
    {
      name: 'ssh-agent',
      ok: !!agent && existsSync(agent),
      detail: agent ? `SSH_AUTH_SOCK=${agent}${existsSync(agent) ? '' : ' (no such socket)'}` : 'SSH_AUTH_SOCK is not set',
      severity: 'warning',
      fix: 'start ssh-agent and ssh-add your key, or give each static host a key file',
    },
    {
      name: 'known_hosts',
      ok: existsSync(knownHosts),
      detail: existsSync(knownHosts) ? knownHosts : `${knownHosts} does not exist`,
      severity: 'warning',
      fix: 'connect once with ssh to record host keys, or give static hosts knownHosts or hostKeys',
    },
  ];
}

/** `cloud: static`: machines you already have, over SSH. Provision connects; teardown disconnects. */
const plugin: CloudPlugin<StaticHostConfig> = {
  kind: 'cloud',
  name: 'static',
  version: '0.1.0',
  description: 'Machines you already have, reached over SSH (host keys verified)',
  hostSchema,
  // These machines exist outside any run: shards must not measure on one at the same time.
  fixedHosts: true,
  async preflight(requests) {
    await checkRequests(requests);
  },
  async provision(requests, ctx) {
    await checkRequests(requests);
    return provisionStatic(requests, ctx);
  },
  async reattach(requests, ctx) {
    // A later invocation connects again; the host key is verified as on the first connection.
    await checkRequests(requests);
    return provisionStatic(requests, ctx);
  },
  async teardown(resource, ctx) {
    // Only connections are ever recorded; anything else is not ours to delete.
    if (resource.type !== CONNECTION) return;
    await closeConnection(ctx.runId, resource.id);
  },
  async cleanup() {
    // Nothing is ever created on a static host that outlives the connection (the host's reaper stops what we ran).
    return { found: [], failed: [] };
  },
  diagnose,
};

export const staticPlugin = definePlugin(plugin);
