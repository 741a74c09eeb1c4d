// The login key netbench makes for Azure when the spec names none, as the
// Resource Manager stand-in (test-support/fake-arm.ts) checks it against the
// API definitions: Azure takes only RSA >= 2048 bit and Ed25519 keys.

import { closedPort } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, requests } from './test-support/harness.js';

describe('azure default login key against the Resource Manager stand-in', () => {
  let h: Harness;
  let outcome: unknown;

  beforeAll(async () => {
    h = await harness();
    // Nothing listens for SSH: provision fails after the VM is created; the VM request is what is checked.
    const plugin = h.plugin({ sshPort: await closedPort() });
    outcome = await plugin.provision(requests({ solo: { zone: 'eastus', hostKeys: 'tofu' } }), h.ctx()).catch((error: unknown) => error);
  }, 60_000);
  afterAll(() => h?.close());

  it('creates the VM with an Ed25519 key that the API definitions accept', () => {
    const vm = h.fake.requests.find((r) => r.method === 'PUT' && r.path.includes('/virtualMachines/'));
    expect(h.fake.violations).toEqual([]);
    expect(vm?.status).toBe(201);
    const keyData = (vm!.body as any).properties.osProfile.linuxConfiguration.ssh.publicKeys[0].keyData as string;
    expect(keyData).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI\S{43} netbench-/);
    expect((vm!.body as any).properties.osProfile.adminUsername).toBe('netbench');
    // It got as far as SSH (refused by the closed port), not stopped by the API.
    expect(String(outcome)).not.toMatch(/InvalidParameter/);
  });
});
