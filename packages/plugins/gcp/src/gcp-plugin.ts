import type { CloudPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { GCP_CATALOG } from './catalog.js';
import { cleanupGcp } from './cleanup.js';
import { estimateGcpCost } from './cost.js';
import { resolveProject } from './credentials.js';
import { diagnoseGcp } from './diagnose.js';
import { type GcpHostConfig, hostSchema } from './host-schema.js';
import { admitPeersGcp } from './peers.js';
import { provisionGcp, runProject } from './provision.js';
import { checkQuotas } from './quotas.js';
import { reattachGcp } from './reattach.js';
import { type GcpPluginOptions, gcpRuntime } from './runtime.js';
import { teardownResource } from './teardown.js';

/**
 * `cloud: gcp`: Compute Engine hosts over the Compute REST API
 * (`@google-cloud/compute`, HTTP/JSON transport), Application Default
 * Credentials. Options point it at another endpoint and credentials (the
 * contract tests use a local server and a static token).
 */
export function createGcpPlugin(options: GcpPluginOptions = {}) {
  const runtime = gcpRuntime(options);
  const plugin: CloudPlugin<GcpHostConfig> = {
    kind: 'cloud',
    name: 'gcp',
    version: '0.1.0',
    description: 'Google Compute Engine VMs in a per-run (or existing) VPC, reached over SSH',
    hostSchema,
    async preflight(requests, ctx) {
      await checkQuotas(requests, runProject(requests), ctx, runtime);
    },
    provision: (requests, ctx) => provisionGcp(requests, ctx, runtime),
    // An earlier invocation's instances, from the ledger: verified RUNNING, labelled for this run, the host key recorded at provision.
    reattach: (requests, ctx) => reattachGcp(requests, ctx, runtime),
    admitPeers: (peers, ctx) => admitPeersGcp(peers, ctx, runtime),
    teardown: (resource, ctx) => teardownResource(resource, ctx, runtime),
    cleanup: (filter, ctx) => cleanupGcp(filter, ctx, runtime, resolveProject(options.project)),
    estimateCost: (requests, usage) => estimateGcpCost(requests, usage, options.priceFile),
    diagnose: (ctx, input) => diagnoseGcp(ctx, input, runtime, options.project),
    catalog: () => GCP_CATALOG,
  };
  return definePlugin(plugin);
}

export const gcpPlugin = createGcpPlugin();
