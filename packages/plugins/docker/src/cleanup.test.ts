import { newRunId } from '@netbench/plugin-api';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { cleanupLeftovers } from './cleanup.js';
import { isNotFound } from './docker-client.js';
import { networkName, runLabels } from './naming.js';

const docker = new Docker();
const daemon = await docker.version().then(
  () => true,
  () => false,
);

describe.runIf(daemon)('docker cleanup by label', () => {
  it('spares the objects of a run alive on this machine (excludeRunIds) and reports them; deletes them once it is not', async () => {
    const runId = newRunId();
    const name = networkName(runId);
    await docker.createNetwork({ Name: name, Labels: runLabels(runId) });
    const exists = () =>
      docker
        .getNetwork(name)
        .inspect()
        .then(
          () => true,
          (error: unknown) => (isNotFound(error) ? false : Promise.reject(error)),
        );
    try {
      // Scoped to this run: other runs' objects on this shared daemon are never touched.
      const live = await cleanupLeftovers(docker, { runId, excludeRunIds: [runId] });
      expect(live.found).toEqual([]);
      expect(live.spared).toEqual([{ type: 'network', id: name, data: { runId } }]);
      expect(await exists()).toBe(true);

      const dead = await cleanupLeftovers(docker, { runId });
      expect(dead.failed).toEqual([]);
      expect(dead.found).toEqual([{ type: 'network', id: name, data: { runId } }]);
      expect(dead.spared).toEqual([]);
      expect(await exists()).toBe(false);
    } finally {
      await docker
        .getNetwork(name)
        .remove()
        .catch(() => {});
    }
  }, 60_000);
});
