import { toolConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

describe('iperf tool conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { protocol: ['tcp', 'udp'], streams: [1, 3], duration: 2, interval: 1 }, { protocol: 'udp', bitrate: '100M', length: 1400 }],
    invalidBlocks: [{ protocol: 'sctp' }, { streams: 0 }, { duration: 0 }, { bitrate: 'fast' }],
    fixtures: {
      dir: new URL('./__fixtures__/', import.meta.url),
      ignore: ['COMMANDS.txt'],
      // iperf reported an error. (The server side's reports parse too: iperf 2 prints them there.)
      // Real outputs cut short (-cut) are refused rather than read with a wrong total.
      rejects: [/^error-/, /-cut/],
    },
  }))
    it(check.name, check.run);
});
