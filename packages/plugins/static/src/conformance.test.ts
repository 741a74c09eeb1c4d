import { cloudConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

// `cloud: static` creates nothing: its ledger holds SSH connections, and
// tearing one down in a fresh process (where it never existed) must succeed.
describe('static cloud conformance', () => {
  for (const check of cloudConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    module: new URL('../dist/index.js', import.meta.url),
    validBlocks: [{ address: '127.0.0.1' }, { address: 'bench-1.example.internal', port: 2222, user: 'bench', key: '~/.ssh/id_ed25519' }],
    invalidBlocks: [{}, { address: '' }, { address: 'h', port: 70000 }],
    goneResources: [{ type: 'connection', id: 'connection@client', host: 'client', data: { address: '127.0.0.1', port: 22, user: 'root' } }],
  }))
    it(check.name, check.run, 60_000);
});
