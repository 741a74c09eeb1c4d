import { createServer } from 'node:net';
import { type Host, processHost } from '@netbench/plugin-api';
import { closedPort } from '@netbench/plugin-api/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { NetserverPool } from './netserver-pool.js';

// a netserver start looks once with the spawn; if the port is not
// listening yet, it waits for netserver's "Starting netserver" line (printed
// just before it binds) before looking again, not a fixed poll interval.
const local = processHost({ id: 'local', name: 'local', cloud: 'local', internalIp: '127.0.0.1' });
const pools: NetserverPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.stop();
});

describe('NetserverPool start (real netserver on loopback)', () => {
  it('looks again only once netserver has said it is starting, and leases a listening netserver', async () => {
    const base = await closedPort();
    const events: string[] = [];
    // The same host, noting in order each look at the ports and netserver's first line.
    const noting: Host = {
      ...local,
      exec: (argv, options) => {
        events.push(argv[0] === 'ss' ? 'look' : `exec ${argv[0]}`);
        return local.exec(argv, options);
      },
      spawn: (argv, options) => {
        const proc = local.spawn(argv, options);
        let said = '';
        const onData = (chunk: Buffer) => {
          said += chunk.toString();
          if (/Starting netserver/.test(said)) {
            events.push('starting');
            proc.stdout.off('data', onData);
            proc.stderr.off('data', onData);
          }
        };
        proc.stdout.on('data', onData);
        proc.stderr.on('data', onData);
        return proc;
      },
    };
    const pool = new NetserverPool(noting, { basePort: base, family: ['-4', '-L', '127.0.0.1'] });
    pools.push(pool);
    const lease = await pool.acquire(1);
    expect(lease.ports).toEqual([{ control: base, data: base + 1 }]);
    // Every look after the first comes after the line.
    const looks = events.flatMap((e, i) => (e === 'look' ? [i] : []));
    expect(looks.length).toBeGreaterThanOrEqual(1);
    for (const at of looks.slice(1)) expect(events.slice(0, at), events.join(' ')).toContain('starting');
    const check = await local.exec(['ss', '-Hltn', `sport = :${base}`], { timeoutMs: 5_000 });
    expect(check.stdout).toContain(`:${base}`);
    lease.release();
  });

  it('a netserver that cannot bind still ends its start at once (its exit), and the next port pair is used', async () => {
    const base = await closedPort();
    const first = new NetserverPool(local, { basePort: base, family: ['-4', '-L', '127.0.0.1'] });
    pools.push(first);
    (await first.acquire(1)).release();
    // A second pool on the same ports: its first netserver exits (port taken), the next pair listens.
    const second = new NetserverPool(local, { basePort: base, family: ['-4', '-L', '127.0.0.1'] });
    pools.push(second);
    const lease = await second.acquire(1);
    expect(lease.ports[0]!.control).toBeGreaterThan(base);
    lease.release();
  });

  it('another program listening on the port is not taken for the netserver: the next pair is leased, and it is the netserver listening there', async () => {
    const base = await closedPort();
    // Not a netserver: this test process listens on the control port, so the kernel names another pid.
    const squatter = createServer();
    await new Promise<void>((done) => squatter.listen(base, '127.0.0.1', done));
    try {
      // As on a loaded machine, the failed netserver's exit is seen late: the port is found listening first.
      const slowToExit: Host = {
        ...local,
        spawn: (argv, options) => {
          const proc = local.spawn(argv, options);
          const exited = proc.exited.then(async (result) => {
            await new Promise((done) => setTimeout(done, 1_000));
            return result;
          });
          return { pid: proc.pid, stdout: proc.stdout, stderr: proc.stderr, stdin: proc.stdin, exited, kill: (signal) => proc.kill(signal) };
        },
      };
      const pool = new NetserverPool(slowToExit, { basePort: base, family: ['-4', '-L', '127.0.0.1'] });
      pools.push(pool);
      const lease = await pool.acquire(1);
      const control = lease.ports[0]!.control;
      expect(control).toBeGreaterThan(base);
      const check = await local.exec(['ss', '-Hltnp', `sport = :${control}`], { timeoutMs: 5_000 });
      expect(check.stdout).toContain(`pid=${lease.pids[0]},`);
      lease.release();
    } finally {
      await new Promise((done) => squatter.close(done));
    }
  });
});
