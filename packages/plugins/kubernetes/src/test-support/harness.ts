import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostRequest, Logger, ProvisionContext } from '@netbench/plugin-api';
import { MemoryLedger } from '@netbench/plugin-api/testing';
import { hostSchema, type KubernetesHostConfig } from '../host-schema.js';
import { FakeKubeApi, type FakeKubeOptions } from './fake-kube-api.js';

export const RUN_ID = '20261125-013000-k8st01';

export interface Harness {
  readonly api: FakeKubeApi;
  readonly kubeconfig: string;
  readonly runDir: string;
  readonly ledger: MemoryLedger;
  readonly log: Logger;
  readonly infos: string[];
  ctx(signal?: AbortSignal): ProvisionContext;
  close(): Promise<void>;
}

export async function harness(options: FakeKubeOptions = {}): Promise<Harness> {
  const api = new FakeKubeApi(options);
  const kubeconfig = await api.start();
  const runDir = await mkdtemp(join(tmpdir(), 'nbt-k8s-'));
  const ledger = new MemoryLedger(RUN_ID, 'kubernetes');
  const infos: string[] = [];
  const log: Logger = { debug() {}, info: (m) => infos.push(m), warn: (m) => infos.push(`warning: ${m}`) };
  return {
    api,
    kubeconfig,
    runDir,
    ledger,
    log,
    infos,
    ctx: (signal = AbortSignal.timeout(30_000)) => ({
      runId: RUN_ID,
      runDir,
      signal,
      log,
      ledger,
      // Pods are reached through the exec API: a call here is a bug.
      connectSsh: () => Promise.reject(new Error('kubernetes hosts are not reached over SSH')),
    }),
    close: async () => {
      await api.stop();
      await rm(runDir, { recursive: true, force: true });
    },
  };
}

/** Host requests as the planner makes them: blocks parsed by the host schema, all pointing at the stand-in. */
export function requests(kubeconfig: string, blocks: Record<string, Record<string, unknown>>): HostRequest<KubernetesHostConfig>[] {
  return Object.entries(blocks).map(([id, block]) => ({ id, name: id.split('@')[0]!, cloud: 'kubernetes', config: hostSchema.parse({ kubeconfig, ...block }) }));
}
