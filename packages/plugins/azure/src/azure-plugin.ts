import type { CloudPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { admitAzurePeers } from './admit-peers.js';
import { AZURE_CATALOG } from './catalog.js';
import { cleanupAzure } from './cleanup.js';
import { estimateAzureCost } from './cost.js';
import { resolveSubscription } from './credentials.js';
import { diagnoseAzure } from './diagnose.js';
import { type AzureHostConfig, hostSchema } from './host-schema.js';
import { checkPlacement } from './placement-check.js';
import { provisionAzure, runSubscription } from './provision.js';
import { checkQuotas } from './quotas.js';
import { reattachAzure } from './reattach.js';
import { type AzurePluginOptions, azureRuntime } from './runtime.js';
import { teardownResource } from './teardown.js';

/**
 * `cloud: azure`: Azure VMs through Resource Manager (`@azure/arm-compute`,
 * `@azure/arm-network`, `@azure/arm-resources`), `DefaultAzureCredential`.
 * Options point it at another endpoint and credential (the contract tests use
 * a local HTTPS server and a static token).
 */
export function createAzurePlugin(options: AzurePluginOptions = {}) {
  const runtime = azureRuntime(options);
  const plugin: CloudPlugin<AzureHostConfig> = {
    kind: 'cloud',
    name: 'azure',
    version: '0.1.0',
    description: 'Azure VMs in a per-run resource group (VNet, NSG, public IPs, NICs), reached over SSH',
    hostSchema,
    async preflight(requests, ctx) {
      checkPlacement(requests);
      await checkQuotas(requests, runtime.clients(runSubscription(requests)), ctx);
    },
    provision: (requests, ctx) => provisionAzure(requests, ctx, runtime),
    // An earlier invocation's VMs, from the ledger: verified running and tagged for this run, the host key recorded at provision.
    reattach: (requests, ctx) => reattachAzure(requests, ctx, runtime),
    admitPeers: (peers, ctx) => admitAzurePeers(peers, ctx, runtime),
    teardown: (resource, ctx) => teardownResource(resource, ctx, runtime),
    cleanup: (filter, ctx) => cleanupAzure(filter, ctx, runtime, resolveSubscription(options.subscription)),
    estimateCost: (requests, usage) => estimateAzureCost(requests, usage, options.priceFile),
    diagnose: (ctx, input) => diagnoseAzure(ctx, input, runtime, options.subscription),
    catalog: () => AZURE_CATALOG,
  };
  return definePlugin(plugin);
}

export const azurePlugin = createAzurePlugin();
