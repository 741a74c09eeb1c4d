import type { LedgerResource } from '@netbench/plugin-api';
import { cloudConformance } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import plugin from './index.js';
import { kubeResource, resourceData, TYPES } from './resources.js';
import { FakeKubeApi } from './test-support/fake-kube-api.js';

// The plugin (and the fresh teardown process, which inherits the
// environment) reads the stand-in's kubeconfig from KUBECONFIG, as a user's
// would be read.
const api = new FakeKubeApi();
const gone = (type: typeof TYPES.pod | typeof TYPES.service, name: string): LedgerResource => kubeResource(type, {}, 'default', name);
const previous = process.env['KUBECONFIG'];

describe('kubernetes cloud conformance', () => {
  beforeAll(async () => {
    process.env['KUBECONFIG'] = await api.start();
  });
  afterAll(async () => {
    await api.stop();
    if (previous === undefined) delete process.env['KUBECONFIG'];
    else process.env['KUBECONFIG'] = previous;
  });

  for (const check of cloudConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    module: new URL('../dist/index.js', import.meta.url),
    validBlocks: [
      {},
      { context: 'prod', namespace: 'bench', image: 'registry.example/netperf:1', hostNetwork: true, placement: { node: 'node-1' }, service: false },
      { placement: { zone: 'us-east1-b', sameNodeAs: 'server' } },
      { serviceOf: 'server' },
      { servicePorts: [{ port: 5201, count: 4, protocols: ['TCP', 'UDP'] }], startTimeout: 60 },
    ],
    invalidBlocks: [
      { namespace: 'Upper' },
      { hostNetwork: 'yes' },
      { serviceOf: 'server', hostNetwork: true },
      { placement: { rack: 'r1' } },
      { servicePorts: [] },
      { zone: 'us-east1-b' },
      { image: '' },
    ],
    goneResources: [gone(TYPES.pod, 'nb-20000101-000000-gone00-w1'), gone(TYPES.service, 'nb-20000101-000000-gone00-w1')],
    provision: {
      hosts: { server: {}, client: { placement: { otherNodeThan: 'server' } }, vip: { serviceOf: 'server' } },
      exists: async (resource) => {
        const { namespace, name } = resourceData(resource);
        return (resource.type === TYPES.pod ? api.pods : api.services).has(`${namespace}/${name}`);
      },
    },
  }))
    it(check.name, check.run, 120_000);
});
