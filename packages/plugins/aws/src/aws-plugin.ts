import type { CleanupFilter, CloudPlugin, DiagnosticCheck } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { ApiCallCounter } from './api-calls.js';
import { awsCatalog } from './catalog.js';
import type { AwsClients } from './clients.js';
import { offlineChecks } from './diagnose-offline.js';
import { estimateAwsCost } from './estimate-cost.js';
import { type AwsHostConfig, hostSchema } from './host-schema.js';
import { loadPriceTable } from './prices.js';
import { readSettings } from './settings.js';

export const PLUGIN_NAME = 'aws';

export interface AwsPluginOptions {
  /** Count every AWS API request here (the plugin keeps its own otherwise). */
  readonly counter?: ApiCallCounter;
  /** Settings source; default `process.env` at each call. */
  readonly env?: NodeJS.ProcessEnv;
}

const runtime = () => import('./runtime.js');

/**
 * `cloud: aws`: EC2 instances in a per-run VPC (or an existing one), reached
 * over SSH. Credentials from the SDK's standard chain; the region from each
 * host's zone; `NETBENCH_AWS_ENDPOINT` (or a host's `endpoint`) for an emulator.
 */
export function awsPlugin(options: AwsPluginOptions = {}) {
  const counter = options.counter ?? new ApiCallCounter();
  const settings = () => readSettings(options.env ?? process.env);
  // Clients are kept per plugin object: teardown of many resources reuses connections.
  let clients: AwsClients | undefined;
  const clientsFor = async () => {
    const s = settings();
    if (!clients || clients.defaultEndpoint !== s.endpoint) clients = new (await runtime()).AwsClients(counter, s.endpoint);
    return clients;
  };

  const plugin: CloudPlugin<AwsHostConfig> = {
    kind: 'cloud',
    name: PLUGIN_NAME,
    version: '0.1.0',
    description: 'EC2 instances in a per-run VPC, reached over SSH',
    hostSchema,
    async provision(requests, ctx) {
      return (await runtime()).provisionAws(requests, ctx, { clients: await clientsFor(), settings: settings() });
    },
    async reattach(requests, ctx) {
      // An earlier invocation's instances, from the ledger: verified running and tagged for this run, the host key recorded at provision.
      return (await runtime()).reattachAws(requests, ctx, { clients: await clientsFor(), settings: settings() });
    },
    async admitPeers(peers, ctx) {
      await (await runtime()).admitAwsPeers(peers, ctx, await clientsFor());
    },
    async teardown(resource, ctx) {
      await (await runtime()).teardownResource(resource, await clientsFor(), ctx.signal);
    },
    async cleanup(filter: CleanupFilter, ctx) {
      return (await runtime()).cleanupTagged(filter, await clientsFor(), settings(), ctx.signal, ctx.log);
    },
    estimateCost(requests, usage) {
      return estimateAwsCost(requests, usage, loadPriceTable(settings().pricesFile));
    },
    catalog() {
      return awsCatalog();
    },
    async diagnose(ctx, input): Promise<DiagnosticCheck[]> {
      const s = settings();
      if (!input?.online) return offlineChecks(s);
      return (await runtime()).onlineChecks(input.requests ?? [], await clientsFor(), s, ctx.signal);
    },
  };
  return definePlugin(plugin);
}

export const defaultAwsPlugin = awsPlugin();
