// A cloud plugin for the kit's own tests: each host is a folder; a
// `behaviour` env var breaks it in the ways the kit must catch.
import { existsSync } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { definePlugin } from '@netbench/plugin-api';
import { processHost, z } from '@netbench/plugin-api';

const made = new Set(); // only the provisioning process knows this
const behaviour = process.env.NBT_CLOUD_BEHAVIOUR ?? 'good';

export default definePlugin({
  kind: 'cloud',
  name: 'folder',
  version: '1.0.0',
  hostSchema: z.strictObject({ root: z.string().describe('Parent folder.') }),
  async provision(requests, ctx) {
    return Promise.all(requests.map(async (request) => {
      const dir = join(request.config.root, `${ctx.runId}-${request.id}`);
      await ctx.ledger.track({ type: 'folder', id: dir }, () => mkdir(dir, { recursive: true }));
      made.add(dir);
      return processHost({ id: request.id, name: request.name, cloud: 'folder', internalIp: '127.0.0.1' });
    }));
  },
  // Folders need no firewall: nothing to open for peers, but the kit checks the shape.
  async admitPeers(peers, ctx) {
    ctx.log.info(`folder: ${peers.length} peers need nothing`);
  },
  catalog: () => ({ date: '2026-01-15', regions: [{ name: 'tmp', zones: ['tmp-a', 'tmp-b'] }], machineTypes: [{ name: 'folder', vcpus: 1, memoryGib: 0.5, family: 'directory' }] }),
  async teardown(resource) {
    // 'closure': works only in the process that provisioned; 'strict': a second delete fails.
    if (behaviour === 'closure' && !made.has(resource.id)) throw new Error(`unknown folder ${resource.id}`);
    if (behaviour === 'strict') return rmdir(resource.id);
    if (behaviour === 'leaky') return;
    await rm(resource.id, { recursive: true, force: true });
  },
  // 'many': a batch delete that works; 'many-leaky': it says every folder is gone but deletes only the
  // first; 'many-short': it answers one outcome too few.
  ...(behaviour.startsWith('many') ? {
    async teardownMany(resources) {
      if (behaviour === 'many-short') return resources.slice(1).map(() => undefined);
      await Promise.all((behaviour === 'many-leaky' ? resources.slice(0, 1) : resources).map((r) => rm(r.id, { recursive: true, force: true })));
      return resources.map(() => undefined);
    },
  } : {}),
});

export const exists = async (resource) => existsSync(resource.id);
