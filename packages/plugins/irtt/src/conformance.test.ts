import { toolConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

describe('irtt tool conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { interval: [0.001, 0.01, 0.1], duration: 2 }, { interval: 0.05, length: 172, dscp: 46, fill: 'rand', perPacket: true }],
    invalidBlocks: [{ interval: 0 }, { interval: [] }, { dscp: 64 }, { fill: 'pattern:00' }, { length: -1 }, { count: 10 }],
    fixtures: {
      dir: new URL('./__fixtures__/', import.meta.url),
      // What irtt printed on stderr next to the JSON: per-packet lines and the summary, read by packet-line.test.ts.
      ignore: [/\.stderr\.txt$/],
    },
  }))
    it(check.name, check.run);
});
