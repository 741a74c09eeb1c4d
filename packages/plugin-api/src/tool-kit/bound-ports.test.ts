import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { processHost } from '../transport/process-host.js';
import { boundPorts, readBoundPorts } from './bound-ports.js';

const host = processHost({ id: 'local', name: 'local', cloud: 'local', internalIp: '127.0.0.1' });
const signal = new AbortController().signal;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function listenTcp(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

describe('readBoundPorts on this host (real /proc/net)', () => {
  it('sees a TCP listener while it listens, and not after it closed', async () => {
    const { server, port } = await listenTcp();
    expect((await readBoundPorts(host, 'tcp', signal))?.has(port)).toBe(true);
    // A TCP listener is not a UDP socket.
    expect((await readBoundPorts(host, 'udp', signal))?.has(port)).toBe(false);
    await new Promise((resolve) => server.close(resolve));
    expect((await readBoundPorts(host, 'tcp', signal))?.has(port)).toBe(false);
  });

  it('sees a bound UDP socket (UDP has no LISTEN state)', async () => {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => socket.close(() => resolve())));
    const port = socket.address().port;
    expect((await readBoundPorts(host, 'udp', signal))?.has(port)).toBe(true);
    expect((await readBoundPorts(host, 'tcp', signal))?.has(port)).toBe(false);
  });

  it('is undefined (unknown, not "nothing bound") when cat prints no /proc/net table', async () => {
    // A prefix that fails before `cat` runs stands in for a host without /proc (not Linux).
    const noProc = processHost({ id: 'x', name: 'x', cloud: 'local', internalIp: '127.0.0.1', prefix: ['env', '-C', '/nonexistent-dir-nbt'] });
    expect(await readBoundPorts(noProc, 'tcp', signal)).toBeUndefined();
  });
});

describe('boundPorts', () => {
  const text = [
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
    '   0: 0100007F:1451 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0',
    '   1: 0100007F:1452 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0000000000000000 20 4 30 10 -1',
  ].join('\n');

  it('TCP: only LISTEN rows; UDP: every bound row', () => {
    expect(boundPorts(text, 'tcp')).toEqual(new Set([0x1451]));
    expect(boundPorts(text, 'udp')).toEqual(new Set([0x1451, 0x1452]));
    expect(boundPorts('garbage', 'udp')).toEqual(new Set());
  });
});
