import { readFile } from 'node:fs/promises';
import { publisherConformance } from '@netbench/plugin-api/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';

describe('csv publisher conformance', () => {
  for (const check of publisherConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { file: 'out.csv' }],
    invalidBlocks: [{ file: '' }, { file: 3 }],
    // A folder that cannot exist: /dev/null is not a directory.
    failingBlock: { file: '/dev/null/netbench/results.csv' },
    async verify({ location, samples, count }) {
      const lines = (await readFile(location!, 'utf8')).trim().split('\n');
      expect(count).toBe(samples.length);
      expect(lines).toHaveLength(samples.length + 1); // a header row
      expect(lines[1]).toContain('rtt');
      expect(lines.some((l) => l.includes('throughput') && l.includes('941.5'))).toBe(true);
    },
  }))
    it(check.name, check.run);
});
