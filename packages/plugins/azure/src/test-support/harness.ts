import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectSshHost } from '@netbench/core';
import type { HostRequest, Logger, ProvisionContext, SshHostOptions } from '@netbench/plugin-api';
import { MemoryLedger } from '@netbench/plugin-api/testing';
import { createAzurePlugin } from '../azure-plugin.js';
import { StaticTokenCredential } from '../clients.js';
import { type AzureHostConfig, hostSchema } from '../host-schema.js';
import type { AzurePluginOptions } from '../runtime.js';
import { FakeArm } from './fake-arm.js';

export const RUN_ID = '20261122-110256-k3f9a2';
export const SUBSCRIPTION = '00000000-1111-2222-3333-444444444444';

export const FAST = { operationTimeoutMs: 10_000, pollMs: 10, hostKeyTimeoutMs: 300, consolePollMs: 20, sshRetry: { attempts: 2, initialDelayMs: 50, maxDelayMs: 100 } };

export interface Harness {
  readonly fake: FakeArm;
  readonly endpoint: string;
  readonly runDir: string;
  readonly ledger: MemoryLedger;
  readonly warnings: string[];
  plugin(options?: Partial<AzurePluginOptions>): ReturnType<typeof createAzurePlugin>;
  ctx(signal?: AbortSignal): ProvisionContext;
  close(): Promise<void>;
}

export async function harness(): Promise<Harness> {
  const fake = new FakeArm();
  const endpoint = await fake.start();
  const runDir = await mkdtemp(join(tmpdir(), 'nbt-azure-'));
  const ledger = new MemoryLedger(RUN_ID, 'azure');
  const warnings: string[] = [];
  const log: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m) };
  return {
    fake,
    endpoint,
    runDir,
    ledger,
    warnings,
    plugin: (options = {}) =>
      createAzurePlugin({
        endpoint,
        credential: new StaticTokenCredential('test-token'),
        ca: fake.ca,
        subscription: SUBSCRIPTION,
        publicAddress: async () => '198.51.100.7/32',
        timing: FAST,
        priceFile: join(runDir, 'no-prices.json'),
        ...options,
      }),
    ctx: (signal = AbortSignal.timeout(30_000)) => ({ runId: RUN_ID, runDir, signal, log, ledger, connectSsh: (o: SshHostOptions) => connectSshHost(o, { signal, log }) }),
    close: async () => {
      await fake.stop();
      await rm(runDir, { recursive: true, force: true });
    },
  };
}

export function requests(blocks: Record<string, Record<string, unknown>>): HostRequest<AzureHostConfig>[] {
  return Object.entries(blocks).map(([id, block]) => ({ id, name: id.split('@')[0]!, cloud: 'azure', config: hostSchema.parse({ subscription: SUBSCRIPTION, ...block }) }));
}
