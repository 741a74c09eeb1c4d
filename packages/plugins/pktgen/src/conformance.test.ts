import { toolConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

describe('pktgen tool conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { count: 1000, size: 1500, rate: 5000, cpu: 1 }, { port: 5001 }],
    invalidBlocks: [{ count: 0 }, { size: 20 }, { rate: 0 }, { cpu: -1 }, { port: 70000 }, { duration: 10 }],
    fixtures: { dir: new URL('./__fixtures__/', import.meta.url), ignore: ['COMMANDS.txt'], rejects: ['configured-not-started.txt', 'refused-command.txt'] },
  }))
    it(check.name, check.run);
});
