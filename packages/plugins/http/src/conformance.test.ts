import { toolConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

describe('http tool conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [
      {},
      { generator: ['ab', 'wrk'], connections: [1, 10, 100], size: [0, '1K', '100K', '1M'], keepalive: [true, false], scheme: ['http', 'https'] },
      { generator: 'oha', rate: [100, 1000, 5000], duration: 5 },
      { generator: 'wrk', url: 'http://{server}:8080/index.html', script: './post.lua' },
    ],
    invalidBlocks: [
      { generator: 'siege' },
      { connections: 0 },
      { size: '1T' },
      { generator: 'ab', rate: 100 },
      { generator: 'oha', script: 'x.lua' },
      { url: 'ftp://x/' },
      { url: 'http://a{server}/' },
      { scheme: 'spdy' },
      { clientCpus: '0;rm' },
    ],
    fixtures: {
      dir: new URL('./__fixtures__/', import.meta.url),
      // ab's -e CSV is read alongside its report, never on its own.
      ignore: [/\.csv$/],
      // The generator gave up (connection refused, timeout) and printed no report.
      rejects: [/^error-/],
    },
  }))
    it(check.name, check.run);
});
