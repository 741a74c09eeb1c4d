import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectSshHost } from '@netbench/core';
import type { HostRequest, Logger, ProvisionContext, SshHostOptions } from '@netbench/plugin-api';
import { MemoryLedger } from '@netbench/plugin-api/testing';
import { type GcpAuthClient, StaticTokenAuth } from '../clients.js';
import { createGcpPlugin } from '../gcp-plugin.js';
import { type GcpHostConfig, hostSchema } from '../host-schema.js';
import type { GcpPluginOptions } from '../runtime.js';
import { FakeGce } from './fake-gce.js';

export const RUN_ID = '20261122-110256-k3f9a2';
export const PROJECT = 'nb-test-project';

export interface Harness {
  readonly fake: FakeGce;
  readonly endpoint: string;
  readonly runDir: string;
  readonly ledger: MemoryLedger;
  readonly warnings: string[];
  readonly log: Logger;
  plugin(options?: Partial<GcpPluginOptions>): ReturnType<typeof createGcpPlugin>;
  ctx(signal?: AbortSignal): ProvisionContext;
  close(): Promise<void>;
}

/** The static-token credentials the fake accepts: no token endpoint, no network. */
export const testAuth = () => new StaticTokenAuth('test-token') as unknown as GcpAuthClient;

export const FAST = {
  operationTimeoutMs: 10_000,
  hostKeyTimeoutMs: 300,
  serialPollMs: 20,
  sshRetry: { attempts: 2, initialDelayMs: 50, maxDelayMs: 100 },
  inUseRetryMs: 2_000,
  inUsePollMs: 20,
};

export async function harness(): Promise<Harness> {
  const fake = new FakeGce();
  const endpoint = await fake.start();
  const runDir = await mkdtemp(join(tmpdir(), 'nbt-gcp-'));
  const ledger = new MemoryLedger(RUN_ID, 'gcp');
  const warnings: string[] = [];
  const log: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m) };
  return {
    fake,
    endpoint,
    runDir,
    ledger,
    warnings,
    log,
    plugin: (options = {}) =>
      createGcpPlugin({
        endpoint,
        authClient: testAuth(),
        publicAddress: async () => '198.51.100.7/32',
        timing: FAST,
        priceFile: join(runDir, 'no-prices.json'),
        project: PROJECT,
        ...options,
      }),
    ctx: (signal = AbortSignal.timeout(30_000)) => ({ runId: RUN_ID, runDir, signal, log, ledger, connectSsh: (o: SshHostOptions) => connectSshHost(o, { signal, log }) }),
    close: async () => {
      await fake.stop();
      await rm(runDir, { recursive: true, force: true });
    },
  };
}

/** Host requests as the planner makes them: blocks parsed by the host schema. */
export function requests(blocks: Record<string, Record<string, unknown>>): HostRequest<GcpHostConfig>[] {
  return Object.entries(blocks).map(([id, block]) => ({ id, name: id.split('@')[0]!, cloud: 'gcp', config: hostSchema.parse({ project: PROJECT, ...block }) }));
}
