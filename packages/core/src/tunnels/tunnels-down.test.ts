import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { tunnelsCleaner } from './tunnels-down.js';

// `netbench cleanup RUN` for tunnel ends, from the ledger entry alone (no transport, a fresh process).
const RUN = '20261128-130000-clean1';
const end = (sameMachine: boolean, dir = `/dev/shm/netbench-${RUN}/wg-b`) => ({
  type: 'tunnel-endpoint', id: 'wg-b', host: 'b',
  data: { dir, iface: 'nbw0123abcdb', kernelLink: false, socket: '/var/run/wireguard/nbw0123abcdb.sock', runId: RUN, tunnel: 'wg', type: 'wireguard', sameMachine },
});

describe('tunnel ends in cleanup', () => {
  test('an end on another machine (SSH, cloud) cannot be reached from the ledger: the error says what to remove there', async () => {
    await expect(tunnelsCleaner.teardown(end(false))).rejects.toThrow(
      `tunnel wg end on host b is on another machine; stop it there: kill the daemons whose pid files are in /dev/shm/netbench-${RUN}/wg-b, then rm -rf /dev/shm/netbench-${RUN}/wg-b`);
  });

  test('an end on this machine that is already gone is undone (idempotent)', async () => {
    expect(existsSync(`/dev/shm/netbench-${RUN}`)).toBe(false);
    await expect(tunnelsCleaner.teardown(end(true))).resolves.toBeUndefined();
  });

  test('a ledger entry pointing outside a netbench tunnel directory is refused, never acted on', async () => {
    await expect(tunnelsCleaner.teardown(end(true, '/etc'))).rejects.toThrow('ledger entry wg-b does not describe a tunnel end');
  });
});
