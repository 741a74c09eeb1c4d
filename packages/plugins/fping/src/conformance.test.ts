import { toolConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

describe('fping tool conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { count: 5, period: 10, direction: 'both' }, { size: 1400, timeout: 200 }],
    invalidBlocks: [{ count: 0 }, { direction: 'sideways' }, { size: -1 }, { period: '20ms' }],
    fixtures: {
      dir: new URL('./__fixtures__/', import.meta.url),
      ignore: ['COMMANDS.txt'],
      // fping without -c/-C: "is alive", no measurement.
      // ...and real outputs cut short (-cut-), refused rather than read as fewer requests.
      rejects: ['alive.txt', /-cut-/],
    },
  }))
    it(check.name, check.run);
});
