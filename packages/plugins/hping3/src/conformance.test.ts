import { toolConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

describe('hping3 tool conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { port: 9, count: 10, interval: 1000 }, { mode: 'flood', duration: 2, cpus: { client: 0 } }],
    invalidBlocks: [{ mode: 'udp' }, { port: 0 }, { count: 0 }, { interval: '10ms' }, { cpus: { server: 1 } }],
    fixtures: { dir: new URL('./__fixtures__/', import.meta.url) },
  }))
    it(check.name, check.run);
});
