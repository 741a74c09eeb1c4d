import { readFile } from 'node:fs/promises';
import { publisherConformance } from '@netbench/plugin-api/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';

describe('json publisher conformance', () => {
  for (const check of publisherConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { pretty: true }, { file: 'out.jsonl' }],
    invalidBlocks: [{ pretty: 'yes' }, { file: '' }],
    // A folder that cannot exist: /dev/null is not a directory.
    failingBlock: { file: '/dev/null/netbench/results.jsonl' },
    async verify({ location, samples, count }) {
      const lines = (await readFile(location!, 'utf8')).trim().split('\n');
      expect(count).toBe(samples.length);
      expect(lines).toHaveLength(samples.length);
      expect(JSON.parse(lines[0]!)).toMatchObject({ metric: 'rtt', unit: 'ms' });
      expect(lines.map((l) => JSON.parse(l) as { metric: string; value: number }).find((s) => s.metric === 'throughput')?.value).toBe(941.5);
    },
  }))
    it(check.name, check.run);
});
