import { describe, expect, it } from 'vitest';
import { bridgeInterfaceName, containerName, networkName, OBJECT_NAME_RE } from './naming.js';

describe('docker object names', () => {
  const runId = '20261122-110256-k3f9a2';
  it('carry the run id, fit Docker names and IFNAMSIZ', () => {
    expect(networkName(runId)).toBe('nb-20261122-110256-k3f9a2');
    expect(containerName(runId, 'vm1@zone=us-east1/b')).toBe('nb-20261122-110256-k3f9a2-vm1_zone_us-east1_b');
    expect(bridgeInterfaceName(runId).length).toBeLessThanOrEqual(15);
    expect(OBJECT_NAME_RE.test(containerName(runId, 'client'))).toBe(true);
  });

  it('teardown refuses names that are not ours', () => {
    for (const name of ['bridge', 'host', 'my-app', 'nb-', 'nb-x-client']) expect(OBJECT_NAME_RE.test(name), name).toBe(false);
  });
});
