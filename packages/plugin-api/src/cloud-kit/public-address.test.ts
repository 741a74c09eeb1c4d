import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UnsupportedError } from '../errors/index.js';
import { detectPublicAddress } from './public-address.js';

// A local echo service (NETBENCH_MY_IP_URL): the tests never ask the real ones.
describe('detectPublicAddress', () => {
  let server: Server;
  let base: string;
  const saved = process.env['NETBENCH_MY_IP_URL'];
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ip') res.end('203.0.113.9\n');
      else if (req.url === '/html') res.end('<html>203.0.113.9</html>');
      else if (req.url === '/error') {
        res.statusCode = 503;
        res.end('203.0.113.9');
      } else setTimeout(() => res.end('203.0.113.9'), 2_000); // /slow
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env['NETBENCH_MY_IP_URL'];
    else process.env['NETBENCH_MY_IP_URL'] = saved;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers the echoed IPv4 address as a /32', async () => {
    process.env['NETBENCH_MY_IP_URL'] = `${base}/ip`;
    expect(await detectPublicAddress(AbortSignal.timeout(5_000))).toBe('203.0.113.9/32');
  });

  it('refuses an answer that is not a bare address, or an HTTP error, naming the URL and sshFrom', async () => {
    for (const path of ['/html', '/error']) {
      process.env['NETBENCH_MY_IP_URL'] = `${base}${path}`;
      const error = await detectPublicAddress(AbortSignal.timeout(5_000)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedError);
      expect((error as Error).message).toContain(`${base}${path}`);
      expect((error as Error).message).toMatch(/sshFrom/);
    }
  });

  it("stops when the run is cancelled, with the signal's reason", async () => {
    process.env['NETBENCH_MY_IP_URL'] = `${base}/slow`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('run cancelled')), 50);
    await expect(detectPublicAddress(controller.signal)).rejects.toThrow('run cancelled');
  });
});
