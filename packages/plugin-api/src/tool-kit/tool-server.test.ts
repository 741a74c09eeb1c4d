import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NetbenchError } from '../errors/index.js';
import { closedPort } from '../testing/closed-port.js';
import { processHost } from '../transport/process-host.js';
import { readBoundPorts } from './bound-ports.js';
import { PortPool } from './port-pool.js';
import { PortInUseError, startToolServer, startToolServerOnFreePort, type ToolServer, withToolServer } from './tool-server.js';

const host = processHost({ id: 'local', name: 'local', cloud: 'local', internalIp: '127.0.0.1' });
const IPERF3 = { tool: 'iperf3', protocol: 'tcp' } as const;
const signal = new AbortController().signal;
const iperf3Server = (port: number) => ['iperf3', '-s', '-1', '-B', '127.0.0.1', '-p', String(port)];

const servers: ToolServer[] = [];
const squatters: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const squatter of squatters.splice(0)) await new Promise((resolve) => squatter.close(resolve));
});

function squat(port: number): Promise<void> {
  return new Promise((resolve) => {
    const server = createServer().listen(port, '127.0.0.1', () => resolve());
    squatters.push(server);
  });
}

// A node "server" that prints which signal stopped it; the readiness check sees its port.
function signalReporter(port: number): string[] {
  const code =
    `const s=require('net').createServer().listen(${port},'127.0.0.1');` +
    `for (const sig of ['SIGINT','SIGTERM']) process.on(sig, () => { console.log('stopped by ' + sig); s.close(); process.exit(0); });`;
  return [process.execPath, '-e', code];
}

describe('startToolServer (real iperf3 and node servers on loopback)', () => {
  it('returns once the port listens; stop ends the process and frees the port', async () => {
    const port = await closedPort();
    const server = await startToolServer(host, iperf3Server(port), port, IPERF3, signal);
    servers.push(server);
    expect(server.port).toBe(port);
    expect((await readBoundPorts(host, 'tcp', signal))?.has(port)).toBe(true);
    const result = await server.stop();
    // Stopped by a signal (iperf3 traps SIGTERM and exits 1), not finished by itself.
    expect(result.code).not.toBe(0);
    expect((await readBoundPorts(host, 'tcp', signal))?.has(port)).toBe(false);
    // Idempotent: the same result again.
    expect(await server.stop()).toBe(result);
  });

  it('a port another program holds is PortInUseError, and the failed server is gone', async () => {
    const port = await closedPort();
    await squat(port);
    const failure = startToolServer(host, iperf3Server(port), port, IPERF3, signal);
    await expect(failure).rejects.toBeInstanceOf(PortInUseError);
    await expect(failure).rejects.toThrow(`iperf3 server on local port ${port} exited at start:`);
  });

  it('any other exit at start is a plain NetbenchError with what the server said', async () => {
    const port = await closedPort();
    const argv = [process.execPath, '-e', 'console.error("no such option --frob"); process.exit(2)'];
    const failure = startToolServer(host, argv, port, { tool: 'mytool', protocol: 'tcp' }, signal);
    await expect(failure).rejects.toThrow('mytool server on local port');
    await expect(failure).rejects.toThrow('no such option --frob');
    await expect(failure).rejects.not.toBeInstanceOf(PortInUseError);
    await expect(failure).rejects.toBeInstanceOf(NetbenchError);
  });

  it('stop sends the configured signals in turn (default SIGTERM first)', async () => {
    const [a, b] = [await closedPort(), await closedPort()];
    const byDefault = await startToolServer(host, signalReporter(a), a, { tool: 'node', protocol: 'tcp' }, signal);
    const byInt = await startToolServer(host, signalReporter(b), b, { tool: 'node', protocol: 'tcp', stopSignals: ['SIGINT', 'SIGKILL'] }, signal);
    servers.push(byDefault, byInt);
    expect((await byDefault.stop()).stdout).toContain('stopped by SIGTERM');
    expect((await byInt.stop()).stdout).toContain('stopped by SIGINT');
  });

  it('stop(graceMs) lets a one-off server finish by itself', async () => {
    const port = await closedPort();
    const server = await startToolServer(host, iperf3Server(port), port, IPERF3, signal);
    servers.push(server);
    const client = host.exec(['iperf3', '-c', '127.0.0.1', '-p', String(port), '-t', '1'], { signal, timeoutMs: 10_000 });
    const result = await server.stop(5_000);
    // Exited on its own (code 0, no signal) after the one test, with its report.
    expect([result.code, result.signal]).toEqual([0, null]);
    expect(result.stdout).toContain('receiver');
    expect((await client).code).toBe(0);
  });
});

describe('startToolServerOnFreePort', () => {
  it('skips a port another program listens on and takes the next from the pool', async () => {
    const first = await closedPort();
    await squat(first);
    const pool = new PortPool(first, first + 1, 'iperf3');
    const server = await startToolServerOnFreePort(host, pool, iperf3Server, IPERF3, signal);
    servers.push(server);
    expect(server.port).toBe(first + 1);
    // Both ports are now out of the pool: the squatted one was never taken, the other is held.
    expect(() => pool.acquire((port) => port === first)).toThrow('no free iperf3 port');
  });

  it('a failure other than "port in use" releases the port and is thrown at once', async () => {
    const first = await closedPort();
    const pool = new PortPool(first, first, 'x');
    const argv = () => [process.execPath, '-e', 'process.exit(3)'];
    await expect(startToolServerOnFreePort(host, pool, argv, { tool: 'x', protocol: 'tcp' }, signal)).rejects.toThrow('exit code 3');
    expect(pool.acquire()).toBe(first);
  });
});

describe('withToolServer', () => {
  it('stops the server and gives its port back after use, also when use throws', async () => {
    const first = await closedPort();
    const pool = new PortPool(first, first, 'iperf3');
    let seen: ToolServer | undefined;
    const value = await withToolServer(host, pool, iperf3Server, IPERF3, signal, async (server) => {
      seen = server;
      expect((await readBoundPorts(host, 'tcp', signal))?.has(server.port)).toBe(true);
      return 42;
    });
    expect(value).toBe(42);
    expect((await seen!.stop()).code).not.toBe(0);
    expect((await readBoundPorts(host, 'tcp', signal))?.has(first)).toBe(false);
    // The only port is free again, so a second use starts; its error passes through.
    await expect(
      withToolServer(host, pool, iperf3Server, IPERF3, signal, async () => {
        throw new Error('client failed');
      }),
    ).rejects.toThrow('client failed');
    expect(pool.acquire()).toBe(first);
  });
});
