import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kubeClients } from './kube-client.js';

const saved = { KUBECONFIG: process.env['KUBECONFIG'], HOME: process.env['HOME'], KUBERNETES_SERVICE_HOST: process.env['KUBERNETES_SERVICE_HOST'] };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('kubeClients', () => {
  it('refuses to guess a cluster when there is no kubeconfig at all (the library would try http://localhost:8080)', () => {
    const home = mkdtempSync(join(tmpdir(), 'nbt-k8s-home-'));
    try {
      delete process.env['KUBECONFIG'];
      delete process.env['KUBERNETES_SERVICE_HOST'];
      process.env['HOME'] = home;
      expect(() => kubeClients({})).toThrow(/no kubeconfig: set KUBECONFIG/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
