import { toolConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

describe('netperf tool conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { tests: ['TCP_RR', 'TCP_STREAM'], duration: 2 }, { tests: ['UDP_RR'], streams: [1, 4], duration: 1 }],
    invalidBlocks: [{ tests: ['TCP_BOGUS'] }, { duration: -1 }, { tests: 'TCP_RR TCP_STREAM' }],
    fixtures: {
      dir: new URL('./__fixtures__/', import.meta.url),
      // The capture log and notes, and what netperf wrote to standard error.
      ignore: ['COMMANDS.txt', 'README.md', /\.stderr\.txt$/],
      // Runs where netperf reported an error, a hand-broken histogram, and the
      // `-V` version probe `check` reads (no measurement in it).
      rejects: ['error-no-netserver.txt', 'error-unknown-test.txt', 'error-server-killed-tcp_rr.txt', 'handmade-histogram-short-row.txt', 'interval-probe-version.txt'],
    },
  }))
    it(check.name, check.run);
});
