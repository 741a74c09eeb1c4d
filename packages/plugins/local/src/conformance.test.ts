import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { LedgerResource } from '@netbench/plugin-api';
import { cloudConformance } from '@netbench/plugin-api/testing';
import { describe, it } from 'vitest';
import plugin from './index.js';

/** In the hub namespace the entry names (gone with it), else in this one (a lab from before the hub). */
const linkExists = (name: string, netns: unknown) => {
  if (typeof netns === 'string' && !existsSync(`/run/netns/${netns}`)) return false;
  try {
    execFileSync('ip', [...(typeof netns === 'string' ? ['-n', netns] : []), 'link', 'show', 'dev', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const alive = (pid: number) => existsSync(`/proc/${pid}`);
const iptablesHas = (resource: LedgerResource) => {
  const bridge = String(resource.data?.['bridge']);
  try {
    execFileSync('iptables', ['-w', '-C', 'FORWARD', '-i', bridge, '-o', bridge, '-m', 'comment', '--comment', `netbench:${String(resource.data?.['runId'])}`, '-j', 'ACCEPT'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
};

/** Whether a lab resource exists, from its ledger entry alone. */
async function exists(resource: LedgerResource): Promise<boolean | undefined> {
  switch (resource.type) {
    case 'netns':
      return existsSync(`/run/netns/${resource.id}`);
    case 'veth':
      return linkExists(resource.id, resource.data?.['hub']);
    case 'bridge':
      return linkExists(resource.id, resource.data?.['netns']);
    case 'firewall':
      return iptablesHas(resource);
    case 'process':
      // A pid file of spawned processes may list none: nothing to tell.
      return typeof resource.data?.['pid'] === 'number' ? alive(resource.data['pid']) : undefined;
    default:
      return undefined;
  }
}

describe('local cloud conformance', () => {
  for (const check of cloudConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    // The fresh teardown process runs plain Node: the built entry.
    module: new URL('../dist/index.js', import.meta.url),
    validBlocks: [{}, { subnet: '10.214.0.0/24', address: '10.214.0.9' }, { link: { rate: '100mbit' } }, { sshd: true }],
    invalidBlocks: [{ subnet: '8.8.8.0/24' }, { link: { jitter: '1ms' } }, { link: { rate: 'fast' } }, { address: 'localhost' }],
    goneResources: [
      { type: 'netns', id: 'nb-20000101-000000-gone00-a' },
      { type: 'veth', id: 'nbgone00h0', data: { runId: '20000101-000000-gone00' } },
      { type: 'bridge', id: 'nbgone00br', data: { runId: '20000101-000000-gone00' } },
      { type: 'firewall', id: 'forward:nbgone00br', data: { runId: '20000101-000000-gone00', bridge: 'nbgone00br' } },
      { type: 'process', id: 'sshd@nb-20000101-000000-gone00-a', data: { pid: 2 ** 22 + 1, startTime: '1', config: '/nonexistent/netbench/sshd_config' } },
    ],
    provision: { hosts: { client: {}, server: { link: { rate: '100mbit' }, sshd: true } }, exists },
  }))
    it(check.name, check.run, 120_000);
});
