import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../plugin/host.js';
import { closedPort } from '../testing/closed-port.js';
import { processHost } from '../transport/process-host.js';
import { readBoundPorts } from './bound-ports.js';
import { PortPool } from './port-pool.js';
import { PortInUseError, startToolServer, startToolServerOnFreePort, type ToolServer } from './tool-server.js';

// startToolServer with `readyLine`: the first wait is the server's
// own "listening" line, not a poll interval; the port is still confirmed bound.
const host = processHost({ id: 'local', name: 'local', cloud: 'local', internalIp: '127.0.0.1' });
const signal = new AbortController().signal;
const IPERF = { tool: 'iperf', protocol: 'tcp', readyLine: /^Server listening on (TCP|UDP) port \d+/ } as const;
const iperfServer = (port: number) => ['iperf', '-s', '-B', '127.0.0.1', '-p', String(port)];

const servers: ToolServer[] = [];
const squatters: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const squatter of squatters.splice(0)) await new Promise((resolve) => squatter.close(resolve));
});

/** A node "server" that prints its ready line first and listens only `laterMs` afterwards. */
function printsBeforeListening(port: number, laterMs: number, line = 'READY'): string[] {
  const code =
    `console.log(${JSON.stringify(line)}); setTimeout(() => require('net').createServer().listen(${port}, '127.0.0.1'), ${laterMs});` +
    `process.on('SIGTERM', () => process.exit(0));`;
  return [process.execPath, '-e', code];
}

describe('startToolServer with a ready line (real iperf 2 and node servers on loopback)', () => {
  it('iperf 2: returns with the port listening and the banner in startOutput; later output still reaches listeners', async () => {
    const port = await closedPort();
    const server = await startToolServer(host, iperfServer(port), port, { ...IPERF, stopSignals: ['SIGINT', 'SIGKILL'] }, signal);
    servers.push(server);
    expect((await readBoundPorts(host, 'tcp', signal))?.has(port)).toBe(true);
    expect(server.startOutput).toContain(`Server listening on TCP port ${port}`);
    // A listener attached once start resolved sees the report of a client that comes afterwards.
    let later = '';
    server.process.stdout.on('data', (chunk: Buffer) => {
      later += chunk.toString();
    });
    const client = await host.exec(['iperf', '-c', '127.0.0.1', '-p', String(port), '-t', '0.3'], { signal, timeoutMs: 10_000 });
    expect(client.code).toBe(0);
    const result = await server.stop(1_000);
    expect(later).toMatch(/bits\/sec/);
    expect((await readBoundPorts(host, 'tcp', signal))?.has(port)).toBe(false);
    expect(result.stdout).toContain(`Server listening on TCP port ${port}`);
  });

  it('a line printed before the port listens does not end the start: the port is confirmed first', async () => {
    const port = await closedPort();
    const server = await startToolServer(host, printsBeforeListening(port, 400), port, { tool: 'node', protocol: 'tcp', readyLine: /^READY$/ }, signal);
    servers.push(server);
    expect((await readBoundPorts(host, 'tcp', signal))?.has(port)).toBe(true);
    expect(server.startOutput).toBe('READY\n');
  });

  it('a server that never prints the line still starts once its port listens', async () => {
    const port = await closedPort();
    const server = await startToolServer(host, printsBeforeListening(port, 0, 'something else'), port, { tool: 'node', protocol: 'tcp', readyLine: /^READY$/ }, signal);
    servers.push(server);
    expect((await readBoundPorts(host, 'tcp', signal))?.has(port)).toBe(true);
  });

  it('iperf 2 on a port another program holds: PortInUseError (it exits without the banner), nothing left', async () => {
    const port = await closedPort();
    await new Promise<void>((resolve) => {
      squatters.push(createServer().listen(port, '127.0.0.1', () => resolve()));
    });
    const failure = startToolServer(host, iperfServer(port), port, IPERF, signal);
    await expect(failure).rejects.toBeInstanceOf(PortInUseError);
    await expect(failure).rejects.toThrow('Address already in use');
  });

  it('an abort during the wait for the line ends the start and stops the server', async () => {
    const port = await closedPort();
    const controller = new AbortController();
    // Never prints the line nor listens within the test: only the abort can end the wait.
    const argv = [process.execPath, '-e', `setTimeout(() => {}, 60000); process.on('SIGTERM', () => process.exit(0));`];
    const started = startToolServer(host, argv, port, { tool: 'node', protocol: 'tcp', readyLine: /^READY$/ }, controller.signal);
    controller.abort(new Error('run interrupted'));
    await expect(started).rejects.toThrow('run interrupted');
  });

  it('on a free port from a pool: tries the port without looking first, and moves on when another program has it', async () => {
    // Two ports in a row, the first held by another program.
    let taken = await closedPort();
    while (!(await canListen(taken + 1))) taken = await closedPort();
    await new Promise<void>((resolve) => {
      squatters.push(createServer().listen(taken, '127.0.0.1', () => resolve()));
    });
    // The same host, noting what it is asked to do, in order.
    const calls: string[] = [];
    const noting: Host = {
      ...host,
      exec: (argv, options) => {
        calls.push(`exec ${argv.join(' ')}`);
        return host.exec(argv, options);
      },
      spawn: (argv, options) => {
        calls.push(`spawn ${argv.join(' ')}`);
        return host.spawn(argv, options);
      },
    };
    const server = await startToolServerOnFreePort(noting, new PortPool(taken, taken + 1, 'iperf'), iperfServer, IPERF, signal);
    servers.push(server);
    expect(server.port).toBe(taken + 1);
    // No look at /proc/net before the first start; the taken port was tried, then the next.
    expect(calls.filter((c) => c.startsWith('spawn'))).toEqual([`spawn ${iperfServer(taken).join(' ')}`, `spawn ${iperfServer(taken + 1).join(' ')}`]);
    expect(calls[0]).toBe(`spawn ${iperfServer(taken).join(' ')}`);
    expect((await readBoundPorts(host, 'tcp', signal))?.has(taken + 1)).toBe(true);
  });
});

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
