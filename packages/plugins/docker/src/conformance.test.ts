import type { LedgerResource } from '@netbench/plugin-api';
import { cloudConformance } from '@netbench/plugin-api/testing';
import Docker from 'dockerode';
import { describe, it } from 'vitest';
import { isNotFound } from './docker-client.js';
import plugin from './index.js';
import { dockerReady } from './test-support/docker-ready.js';

const docker = new Docker();
const ready = await dockerReady();

/** Whether a recorded container or network exists, from its ledger entry alone. */
async function exists(resource: LedgerResource): Promise<boolean | undefined> {
  const object = resource.type === 'container' ? docker.getContainer(resource.id) : resource.type === 'network' ? docker.getNetwork(resource.id) : undefined;
  if (!object) return undefined;
  return object.inspect().then(
    () => true,
    (error: unknown) => (isNotFound(error) ? false : Promise.reject(error)),
  );
}

describe('docker cloud conformance', () => {
  const checks = cloudConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    module: new URL('../dist/index.js', import.meta.url),
    validBlocks: [
      {},
      { image: 'netbench/tools:bookworm', network: 'host' },
      { link: { rate: '100mbit', ingressRate: '1gbit' } },
      { cpus: 1.5, memory: '512m', cpuset: '0-1' },
      { publicAddress: '203.0.113.7' },
    ],
    invalidBlocks: [
      { network: 'overlay' },
      { link: { jitter: '1ms' } },
      { link: { rate: 'fast' } },
      { image: 'a b' },
      { memory: 'lots' },
      { publicAddress: 'me' },
      { ports: [80] },
    ],
    goneResources: [
      { type: 'container', id: 'nb-20000101-000000-gone00-a', data: { runId: '20000101-000000-gone00' } },
      { type: 'network', id: 'nb-20000101-000000-gone00', data: { runId: '20000101-000000-gone00' } },
    ],
    ...(ready ? { provision: { hosts: { client: {}, server: { link: { rate: '100mbit', ingressRate: '200mbit' } } }, exists } } : {}),
  });
  // Without a daemon, teardown of gone resources cannot be told from a daemon that is down: those checks need one.
  for (const check of checks) {
    const needsDaemon = /teardown|cleanup|provision/.test(check.name);
    it.runIf(ready || !needsDaemon)(check.name, check.run, 120_000);
  }
});
