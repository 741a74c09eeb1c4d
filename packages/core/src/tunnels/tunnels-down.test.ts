import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { asOtherUser, isRoot, OTHER_USER } from '../run-id/test-support/other-user.js';
import { daemonArgv } from './commands.js';
import { tunnelsCleaner } from './tunnels-down.js';

// `netbench cleanup RUN` for tunnel ends, from the ledger entry alone (no transport, a fresh process).
const RUN = '20261128-130000-clean1';
const end = (sameMachine: boolean, dir = `/dev/shm/netbench-${RUN}/wg-b`) => ({
  type: 'tunnel-endpoint',
  id: 'wg-b',
  host: 'b',
  data: { dir, iface: 'nbw0123abcdb', kernelLink: false, socket: '/var/run/wireguard/nbw0123abcdb.sock', runId: RUN, tunnel: 'wg', type: 'wireguard', sameMachine },
});

describe('tunnel ends in cleanup', () => {
  test('an end on another machine (SSH, cloud) cannot be reached from the ledger: the error says what to remove there', async () => {
    await expect(tunnelsCleaner.teardown(end(false))).rejects.toThrow(
      `tunnel wg end on host b is on another machine; stop it there: kill the daemons whose pid files are in /dev/shm/netbench-${RUN}/wg-b, then rm -rf /dev/shm/netbench-${RUN}/wg-b`,
    );
  });

  test('an end on this machine that is already gone is undone (idempotent)', async () => {
    expect(existsSync(`/dev/shm/netbench-${RUN}`)).toBe(false);
    await expect(tunnelsCleaner.teardown(end(true))).resolves.toBeUndefined();
  });

  test('a ledger entry pointing outside a netbench tunnel directory is refused, never acted on', async () => {
    await expect(tunnelsCleaner.teardown(end(true, '/etc'))).rejects.toThrow('ledger entry wg-b does not describe a tunnel end');
  });

  // Root only: only root can make a directory another user owns (the user is added with useradd when absent).
  test.skipIf(!isRoot || !existsSync('/dev/shm'))(
    'an end whose directory another user made (after the run removed its own) is refused, and the process its pid file names lives on',
    async () => {
      const run = `20261207-060000-clean${process.pid % 10}`;
      const root = `/dev/shm/netbench-${run}`;
      const mine = `/dev/shm/netbench-${run}-mine`;
      try {
        // A process of root's, recorded (pid and start time) as the daemon wrapper records one.
        const [command, ...args] = daemonArgv(`${mine}/d.pid`, `${mine}/d.log`, ['sleep', '60']);
        expect(spawnSync('mkdir', ['-m', '0700', '--', mine]).status).toBe(0);
        expect(spawnSync(command!, args).status).toBe(0);
        for (let i = 0; i < 150 && !(existsSync(`${mine}/d.pid`) && readFileSync(`${mine}/d.pid`, 'utf8').endsWith('\n')); i += 1) await new Promise((r) => setTimeout(r, 20));
        const line = readFileSync(`${mine}/d.pid`, 'utf8');
        const pid = Number(line.split(' ')[0]);
        expect(asOtherUser(['sh', '-c', 'mkdir -m 0700 -- "$1" "$1/wg-b" && cat > "$1/wg-b/wireguard-go.pid"', 'sh', root], line).status).toBe(0);
        const entry = end(true, `${root}/wg-b`);
        await expect(tunnelsCleaner.teardown({ ...entry, data: { ...entry.data, runId: run } })).rejects.toThrow(`refusing ${root}: it is owned by ${OTHER_USER}`);
        expect(existsSync(`/proc/${pid}`)).toBe(true);
        process.kill(pid, 'SIGKILL');
      } finally {
        rmSync(root, { recursive: true, force: true });
        rmSync(mine, { recursive: true, force: true });
      }
    },
  );
});
