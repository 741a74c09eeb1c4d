import { toolConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

// The same checks every built-in netbench tool plugin runs.
describe('sockperf conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { mode: ['ping-pong', 'under-load'], protocol: ['udp', 'tcp'], duration: 2 }, { mode: 'under-load', mps: 5000, replyEvery: 10, fullRtt: true }],
    invalidBlocks: [{ mode: 'throughput' }, { protocol: 'sctp' }, { messageSize: 8 }, { duration: 0 }, { port: 1 }],
    requireDescriptions: true,
    fixtures: {
      dir: new URL('./__fixtures__/', import.meta.url),
      ignore: ['COMMANDS.txt'],
      // sockperf's own error reports: no server listening.
      rejects: [/^error-/],
    },
  }))
    it(check.name, check.run);
});
