import { toolConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

describe('iperf3 tool conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { protocol: ['tcp', 'udp'], streams: [1, 4], duration: 2 }, { protocol: 'udp', bitrate: '100M', reverse: true }],
    invalidBlocks: [{ protocol: 'sctp' }, { streams: 0 }, { reverse: true, bidir: true }, { bitrate: 'fast' }],
    fixtures: {
      dir: new URL('./__fixtures__/', import.meta.url),
      // /proc/net/tcp as read to find listening ports: not iperf3 output.
      ignore: ['proc-net-tcp.txt'],
      // iperf3 reported an error; and the server's -J output, which has no client-side results.
      // Real outputs cut short (-cut) are refused rather than read with a wrong total.
      rejects: [/^error-/, /^server-/, /-cut/],
    },
  }))
    it(check.name, check.run);
});
