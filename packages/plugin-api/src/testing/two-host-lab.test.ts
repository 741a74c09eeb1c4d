// twoHostLab: real namespaces, real ping, and nothing left behind after close().
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { type TwoHostLab, twoHostLab } from './index.js';

const labs: TwoHostLab[] = [];
afterAll(async () => {
  await Promise.all(labs.map((lab) => lab.close()));
});
async function lab(options?: Parameters<typeof twoHostLab>[0]): Promise<TwoHostLab> {
  const created = await twoHostLab(options);
  labs.push(created);
  return created;
}

const namespaces = () => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
const rootLinks = () => execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' });
const ping = (from: TwoHostLab['client'], to: string) => from.exec(['ping', '-c', '1', '-W', '1', to], { timeoutMs: 10_000 });

describe('twoHostLab', () => {
  it('creates two namespaces whose hosts ping each other by their addresses', async () => {
    const l = await lab({ tag: 'kit', subnet: '10.213.91' });
    expect(namespaces()).toContain(l.clientNs);
    expect(namespaces()).toContain(l.serverNs);
    expect([l.clientIp, l.serverIp, l.silentIp]).toEqual(['10.213.91.1', '10.213.91.2', '10.213.91.99']);
    expect(l.client.internalIp).toBe(l.clientIp);
    expect(l.server.internalIp).toBe(l.serverIp);
    // Each host really is inside its namespace: it holds its own address and not the other's.
    const clientAddrs = (await l.client.exec(['ip', '-4', '-o', 'addr', 'show'])).stdout;
    expect(clientAddrs).toContain(`${l.clientIp}/24`);
    expect(clientAddrs).not.toContain(l.serverIp);

    const there = await ping(l.client, l.serverIp);
    expect(there.code, there.stderr).toBe(0);
    expect(there.stdout).toMatch(/1 received/);
    expect((await ping(l.server, l.clientIp)).code).toBe(0);
    // The silent address swallows what is sent to it.
    const lost = await ping(l.client, l.silentIp);
    expect(lost.code).toBe(1);
    expect(lost.stdout).toMatch(/0 received/);
  });

  it('names namespaces after this process and makes every lab unique, so parallel test files and labs never collide', async () => {
    // Same tag, same subnet, created at once: still two separate islands.
    const [a, b] = await Promise.all([lab({ tag: 'twin' }), lab({ tag: 'twin' })]);
    const names = [a!.clientNs, a!.serverNs, b!.clientNs, b!.serverNs];
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(new RegExp(`^nbt-twin-${process.pid.toString(36)}`));
    expect(a!.serverIp).toBe(b!.serverIp);
    // A server listening only in b's server namespace is not reachable from a's client at the same address.
    const listener = b!.server.spawn([process.execPath, '-e', `require('node:net').createServer((s) => s.end('hi')).listen(7001, '${b!.serverIp}', () => console.log('up'))`]);
    try {
      await Promise.race([
        new Promise((resolve) => listener.stdout.once('data', resolve)),
        listener.exited.then((e) => {
          throw new Error(`listener exited: ${e.stderr}`);
        }),
      ]);
      const connect = (host: TwoHostLab['client']) =>
        host.exec(
          [process.execPath, '-e', `require('node:net').connect(7001, '${b!.serverIp}').on('data', (d) => console.log(String(d))).on('error', (e) => { console.log(e.code); })`],
          { timeoutMs: 10_000 },
        );
      expect((await connect(b!.client)).stdout.trim()).toBe('hi');
      expect((await connect(a!.client)).stdout.trim()).toBe('ECONNREFUSED');
    } finally {
      listener.kill('SIGKILL');
      await listener.exited;
    }
  });

  it('runs every command through hostPrefix', async () => {
    const l = await lab({ tag: 'nobody', hostPrefix: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] });
    expect((await l.client.exec(['id', '-u'])).stdout.trim()).toBe('65534');
    expect((await l.server.exec(['id', '-u'])).stdout.trim()).toBe('65534');
  });

  it('close() kills the processes in both namespaces and removes the namespaces and links, and may be called again', async () => {
    const l = await twoHostLab({ tag: 'close' });
    const sleepers = [l.client.spawn(['sleep', '60']), l.server.spawn(['sleep', '61'])];
    for (let i = 0; i < 100 && (l.pids(l.clientNs).length === 0 || l.pids(l.serverNs).length === 0); i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(l.commands(l.clientNs)).toEqual(['sleep 60']);
    expect(l.commands(l.serverNs)).toEqual(['sleep 61']);

    await l.close();
    const ended = await Promise.all(sleepers.map((s) => s.exited));
    expect(ended.map((e) => e.signal)).toEqual(['SIGKILL', 'SIGKILL']);
    expect(namespaces()).not.toContain(l.clientNs);
    expect(namespaces()).not.toContain(l.serverNs);
    const id = l.clientNs.slice('nbt-close-'.length, -'-c'.length);
    expect(rootLinks()).not.toContain(`nb${id}`);
    expect(l.pids(l.clientNs)).toEqual([]);
    await l.close();
  });

  it('refuses a bad tag or subnet before creating anything, and namespaces not its own', async () => {
    await expect(twoHostLab({ tag: 'Bad Tag' })).rejects.toThrow(/tag "Bad Tag" must be/);
    await expect(twoHostLab({ subnet: '10.0.0.0/24' })).rejects.toThrow(/subnet "10.0.0.0\/24" must be three octets/);
    await expect(twoHostLab({ subnet: '10.300.1' })).rejects.toThrow(/must be three octets/);
    expect(namespaces()).not.toContain(`nbt-lab-${process.pid.toString(36)}`);
    const l = await lab({ tag: 'own' });
    expect(() => l.pids('some-other-ns')).toThrow(/not a namespace of this lab/);
  });
});
