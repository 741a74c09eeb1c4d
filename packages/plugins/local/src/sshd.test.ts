import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Host } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { runTag } from './naming.js';
import { isSameProcessAlive } from './processes.js';
import { hostRun, leftovers, request, testRun } from './test-support/lab.js';

describe('local lab: sshd inside a namespace', () => {
  const run = testRun();
  let client: Host;
  let server: Host;

  beforeAll(async () => {
    const began = performance.now();
    [client, server] = (await plugin.provision([request('client'), request('server', { sshd: true, address: '10.213.0.30' })], run.ctx)) as [Host, Host];
    console.log(`provision of 2 hosts, one with sshd: ${(performance.now() - began).toFixed(0)} ms`);
  }, 60_000);

  afterAll(async () => {
    await run.teardown(plugin);
    run.dispose();
  }, 60_000);

  const ssh = (knownHosts: string) => [
    'ssh',
    '-F',
    '/dev/null',
    '-i',
    server.labels.ssh_key!,
    '-o',
    `UserKnownHostsFile=${knownHosts}`,
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    'BatchMode=yes',
    '-o',
    'ConnectTimeout=5',
    '-p',
    server.labels.ssh_port!,
    `${server.labels.ssh_user}@${server.internalIp}`,
    'echo',
    'ok',
  ];

  it('exposes port, user, key and known_hosts in the labels', async () => {
    expect(server.labels).toMatchObject({ ssh_port: '22', ssh_user: 'root' });
    expect(server.labels.ssh_key).toBe(join(run.ctx.runDir, 'local', 'server', 'id_ed25519'));
    expect(await readFile(server.labels.ssh_known_hosts!, 'utf8')).toMatch(/^10\.213\.0\.30 ssh-ed25519 AAAA\S+\n$/);
    expect(client.labels.ssh_port).toBeUndefined();
  });

  it('accepts the client key from another namespace, with strict host key checking', async () => {
    expect((await hostRun(client, ssh(server.labels.ssh_known_hosts!))).trim()).toBe('ok');
  });

  it('is refused when the host key is not the one recorded', async () => {
    const wrong = join(run.ctx.runDir, 'wrong_known_hosts');
    await writeFile(wrong, '10.213.0.30 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBKcx1QeH6cWCdKS/pd3gUmaHFTjpBUKY9IALYZbT8Z8\n');
    const result = await client.exec(ssh(wrong), { timeoutMs: 20_000 });
    expect(result.code).toBe(255);
    expect(result.stderr).toMatch(/HOST IDENTIFICATION HAS CHANGED|Host key verification failed/);
  });

  it('stops sshd on teardown (recorded with pid and start time)', async () => {
    const record = run.ctx.ledger.pending().find((r) => r.id === `sshd@nb-${run.ctx.runId}-server`);
    expect(record?.type).toBe('process');
    const pid = record?.data?.pid as number;
    const startTime = record?.data?.startTime as string;
    expect(await isSameProcessAlive(pid, startTime)).toBe(true);
    expect(await run.teardown(plugin)).toEqual([]);
    expect(await isSameProcessAlive(pid, startTime)).toBe(false);
    expect(await leftovers(run.ctx.runId, runTag(run.ctx.runId))).toEqual([]);
  }, 30_000);
});
