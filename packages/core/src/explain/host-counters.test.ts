import { execFile, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { counterDelta } from './counter-delta.js';
import { parseHostCounters } from './host-counters.js';
import { counterReadArgv } from './read-counters.js';

const exec = promisify(execFile);

async function read(sockets?: string) {
  const [command, ...args] = counterReadArgv(sockets, { sockets: sockets !== undefined, processes: true });
  const { stdout } = await exec(command!, args, { maxBuffer: 1 << 24 });
  return parseHostCounters(stdout, Date.now());
}

describe('one counter read of this machine', () => {
  it('has every CPU, the protocol counters, the interfaces and the qdiscs', async () => {
    const counters = await read();
    expect(counters.cpus.map((c) => c.cpu)).toEqual(Array.from({ length: counters.cpus.length }, (_, i) => i));
    expect(counters.cpus.length).toBeGreaterThanOrEqual(availableParallelism());
    for (const name of ['Tcp.RetransSegs', 'Tcp.OutSegs', 'Udp.RcvbufErrors', 'Udp.InDatagrams', 'Ip.InDiscards', 'TcpExt.TCPLostRetransmit'])
      expect(counters.protocols.has(name), name).toBe(true);
    expect(counters.interfaces.some((i) => i.iface === 'lo')).toBe(true);
    expect(counters.softnet.length).toBe(counters.cpus.length);
    expect(counters.qdiscs.some((q) => q.dev === 'lo')).toBe(true);
  });

  it('reads the interface and MTU toward each peer it is given, in the same one process', async () => {
    const [command, ...args] = counterReadArgv(undefined, { routes: ['127.0.0.1', '127.0.0.2', '-f/etc/passwd'] });
    const counters = parseHostCounters((await exec(command!, args, { maxBuffer: 1 << 24 })).stdout, Date.now());
    const mtu = Number((await exec('cat', ['/sys/class/net/lo/mtu'])).stdout.trim());
    // An argument that is no address gets no route (ip refuses it), never an option.
    expect(counters.routes).toEqual([
      { peer: '127.0.0.1', dev: 'lo', mtu },
      { peer: '127.0.0.2', dev: 'lo', mtu },
    ]);
    expect(counters.route).toBeUndefined();
    // Without peers there is no routes part.
    expect((await read()).routes).toBeUndefined();
  });

  it('sees a CPU kept busy between two reads as busy, mostly in user space', async () => {
    const before = await read();
    // A busy loop pinned to CPU 0 for 400 ms: that CPU's share is near 1 whatever else runs.
    const burner = spawn('taskset', ['-c', '0', process.execPath, '-e', 'const end = Date.now() + 400; while (Date.now() < end);'], { stdio: 'ignore' });
    await new Promise((resolve) => burner.once('exit', resolve));
    const delta = counterDelta(before, await read());
    const cpu0 = delta.cpus.find((c) => c.cpu === 0)!;
    expect(cpu0.busy).toBeGreaterThan(0.6);
    expect(cpu0.user).toBeGreaterThan(cpu0.softirq);
    expect(delta.seconds).toBeGreaterThan(0.35);
  });

  it('counts the TCP segments and loopback bytes of a real iperf3 transfer, and reads its sockets with ss', async () => {
    const port = String(20000 + (process.pid % 20000));
    const server = spawn('iperf3', ['-s', '-1', '-p', port], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 300));
    const before = await read();
    const client = spawn('iperf3', ['-c', '127.0.0.1', '-p', port, '-t', '2', '-b', '200M'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 1000));
    const during = await read('127.0.0.1');
    await new Promise((resolve) => client.once('exit', resolve));
    server.kill();
    const delta = counterDelta(before, await read());
    expect(delta.protocols.get('Tcp.OutSegs') ?? 0).toBeGreaterThan(1000);
    const lo = delta.interfaces.find((i) => i.iface === 'lo')!;
    // 200 Mbit/s for 2 s is 50 MB each way on loopback.
    expect(lo.txBytes).toBeGreaterThan(20e6);
    const data = during.sockets.filter((s) => s.peer.endsWith(`:${port}`) && (s.bytesSent ?? 0) > 1e6);
    expect(data.length).toBe(1);
    expect(data[0]!.mss).toBeGreaterThan(0);
    expect(data[0]!.cwnd).toBeGreaterThan(0);
    expect(data[0]!.rttMs).toBeGreaterThan(0);
  });
});

describe('the dear parts of a read only where they are asked for', () => {
  it("reads sockets and processes only when told to; the processes of this namespace include the test's own", async () => {
    const plain = await (async () => {
      const [command, ...args] = counterReadArgv('127.0.0.1');
      const { stdout } = await exec(command!, args, { maxBuffer: 1 << 24 });
      return parseHostCounters(stdout, Date.now());
    })();
    expect(plain.processes.size).toBe(0);
    expect(plain.route?.dev).toBe('lo');
    const full = await read('127.0.0.1');
    expect([...full.processes.values()].some((p) => p.pid === process.pid)).toBe(true);
    expect([...full.processes.values()].every((p) => !['find', 'xargs', 'cat', 'sed'].includes(p.comm))).toBe(true);
  });
});
