import { type Files, pluginConst, readme, type ScaffoldInput } from './common-files.js';

/** A cloud plugin whose hosts are this machine, each with a scratch folder it records in the ledger. */
export function cloudFiles(input: ScaffoldInput): Files {
  return {
    'src/schema.ts': `import { z } from '@netbench/plugin-api';

/** Host fields of \`cloud: ${input.name}\` (besides cloud and reuse). Strict: unknown fields are errors. */
export const hostSchema = z.strictObject({
  zone: z.string().min(1).default('local-a').describe('Zone label recorded with every sample.'),
});

export type HostConfig = z.output<typeof hostSchema>;
`,
    'src/teardown.ts': `import { rm } from 'node:fs/promises';
import type { LedgerResource } from '@netbench/plugin-api';

/**
 * Delete one recorded resource from its ledger entry alone (a fresh process
 * may call this after a crash). Idempotent: a resource already gone is success.
 */
export async function teardownResource(resource: LedgerResource): Promise<void> {
  if (resource.type !== 'scratch-dir') throw new Error('${input.name}: unknown resource type ' + resource.type);
  await rm(resource.id, { recursive: true, force: true });
}
`,
    // One entry convention: the plugin is made in src/plugin.ts; src/index.ts default-exports it.
    'src/index.ts': `export { ${pluginConst(input.name)} as default } from './plugin.js';
`,
    'src/plugin.ts': `import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { definePlugin } from '@netbench/plugin-api';
import { processHost } from '@netbench/plugin-api';
import { hostSchema } from './schema.js';
import { teardownResource } from './teardown.js';

/**
 * \`cloud: ${input.name}\`. provision() makes one host per request and
 * records every resource in the ledger *before* creating it; teardown()
 * deletes one resource from its ledger entry, idempotently. Here a host is
 * this machine on loopback, and its resource a scratch folder.
 */
export const ${pluginConst(input.name)} = definePlugin({
  kind: 'cloud',
  name: '${input.name}',
  version: '0.1.0',
  description: 'Hosts are this machine on loopback (replace with your cloud)',
  hostSchema,
  async provision(requests, ctx) {
    const hosts = [];
    for (const request of requests) {
      const dir = join(ctx.runDir, '${input.name}', request.id.replace(/[^A-Za-z0-9_.-]/g, '_'));
      await ctx.ledger.track({ type: 'scratch-dir', id: dir, host: request.id }, () => mkdir(dir, { recursive: true }));
      hosts.push(processHost({ id: request.id, name: request.name, cloud: '${input.name}', internalIp: '127.0.0.1', zone: request.config.zone, labels: { scratch: dir } }));
    }
    return hosts;
  },
  async teardown(resource) {
    await teardownResource(resource);
  },
});
`,
    'src/conformance.test.ts': `import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';
import { cloudConformance } from '@netbench/plugin-api/testing';
import plugin from './index.js';

// The checks every netbench cloud plugin passes, built-in or third-party.
describe('${input.name} conformance', () => {
  for (const check of cloudConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    // A fresh Node process imports the built entry to tear down from the ledger alone.
    module: new URL('../dist/index.js', import.meta.url),
    validBlocks: [{}, { zone: 'b' }],
    invalidBlocks: [{ zone: '' }, { zone: 3 }],
    requireDescriptions: true,
    goneResources: [{ type: 'scratch-dir', id: '/tmp/${input.name}-conformance-never-made' }],
    provision: { hosts: { a: {}, b: { zone: 'b' } }, exists: async (resource) => existsSync(resource.id) },
  })) it(check.name, check.run);
});
`,
    'README.md': readme(
      input,
      `## What to change

- \`src/schema.ts\`: your host fields (region, machine type, image, ...).
- \`src/plugin.ts\`: \`provision\` creates machines (record each with \`ctx.ledger.track\` *before* creating it)
  and returns a \`Host\` per request; add \`preflight\` (credentials, quotas) and \`cleanup\` (leftovers by run-id naming).
- \`src/teardown.ts\`: delete by ledger entry alone, idempotently.`,
    ),
  };
}
