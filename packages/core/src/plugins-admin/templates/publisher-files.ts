import { type Files, pluginConst, readme, type ScaffoldInput } from './common-files.js';

/** A publisher writing samples as JSON lines. */
export function publisherFiles(input: ScaffoldInput): Files {
  return {
    'src/schema.ts': `import { z } from '@netbench/plugin-api';

/** Settings of \`- type: ${input.name}\` in \`publish\`. Strict: unknown fields are errors. */
export const schema = z.strictObject({
  file: z.string().min(1).optional().describe('Output file; default <runDir>/${input.name}.jsonl.'),
});

export type Settings = z.output<typeof schema>;
`,
    // One entry convention: the plugin is made in src/plugin.ts; src/index.ts default-exports it.
    'src/index.ts': `export { ${pluginConst(input.name)} as default } from './plugin.js';
`,
    'src/plugin.ts': `import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { definePlugin } from '@netbench/plugin-api';
import { schema } from './schema.js';

/**
 * \`type: ${input.name}\`. publish() runs after teardown, isolated: if it
 * throws, netbench reports it and the other publishers still run.
 */
export const ${pluginConst(input.name)} = definePlugin({
  kind: 'publisher',
  name: '${input.name}',
  version: '0.1.0',
  description: 'Writes samples as JSON lines (replace with your backend)',
  schema,
  async publish(run, samples, settings, ctx) {
    const file = settings.file ? resolve(settings.file) : join(ctx.runDir, '${input.name}.jsonl');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, samples.map((s) => JSON.stringify({ run: run.runId, ...s })).join('\\n') + '\\n');
    return { location: file, count: samples.length };
  },
});
`,
    'src/conformance.test.ts': `import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { publisherConformance } from '@netbench/plugin-api/testing';
import plugin from './index.js';

// The checks every netbench publisher passes, built-in or third-party.
describe('${input.name} conformance', () => {
  for (const check of publisherConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}],
    invalidBlocks: [{ file: '' }],
    requireDescriptions: true,
    failingBlock: { file: '/dev/null/not-a-folder/out.jsonl' },
    verify: ({ location, samples }) => {
      expect(readFileSync(location!, 'utf8').trim().split('\\n')).toHaveLength(samples.length);
    },
  })) it(check.name, check.run);
});
`,
    'README.md': readme(
      input,
      `## What to change

- \`src/schema.ts\`: your settings (a table name, a URL, ...).
- \`src/plugin.ts\`: \`publish(run, samples, settings, ctx)\` sends them; return \`{ location, count }\`.`,
    ),
  };
}
