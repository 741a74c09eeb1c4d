import { toolConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

describe('ping tool conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { count: 5, interval: 0.01, direction: 'forward' }, { flood: true, size: 1400, direction: 'both' }],
    invalidBlocks: [{ count: 0 }, { direction: 'sideways' }, { size: -1 }, { interval: '1s' }],
    fixtures: { dir: new URL('./__fixtures__/', import.meta.url) },
  }))
    it(check.name, check.run);
});
