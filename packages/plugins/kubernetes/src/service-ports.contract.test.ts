// A Service forwards only the ports it lists. The plugin gives its Service
// hosts those ports (`reachablePorts`, from the same `servicePorts` the
// Service is made of), and the stand-in API server enforces them as
// kube-proxy would (iptables on its cluster IPs: needs root).
import { createConnection, createServer, type Server } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubernetesPlugin } from './kubernetes-plugin.js';
import { type Harness, harness, requests } from './test-support/harness.js';

let h: Harness;
const servers: Server[] = [];
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  for (const s of servers.splice(0)) s.close();
  await h.close();
});

const listen = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const server = createServer((socket) => socket.end('hello')).once('error', reject);
    servers.push(server);
    server.listen(port, '0.0.0.0', () => resolve());
  });
const connect = (host: string, port: number) =>
  new Promise<string>((resolve) => {
    const socket = createConnection({ host, port, timeout: 3000 });
    let got = '';
    socket.on('data', (d) => {
      got += d.toString();
    });
    socket.on('end', () => resolve(got === 'hello' ? 'connected' : `said ${got}`));
    socket.on('timeout', () => {
      socket.destroy();
      resolve('timed out');
    });
    socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });

describe('Service ports', () => {
  it('a Service host reaches its pod only on the listed ports; the pod host itself on any', async () => {
    const [pod, service] = await kubernetesPlugin.provision(
      requests(h.kubeconfig, {
        w1: {
          servicePorts: [
            { port: 5721, count: 2, protocols: ['TCP'] },
            { port: 20000, count: 4, protocols: ['TCP', 'UDP', 'SCTP'] },
          ],
        },
        w1svc: { serviceOf: 'w1' },
      }),
      h.ctx(),
    );
    expect(h.api.rejected).toEqual([]);
    expect(service!.reachablePorts).toEqual([
      { first: 5721, last: 5722, protocols: ['tcp'] },
      { first: 20000, last: 20003, protocols: ['tcp', 'udp'] },
    ]);
    expect(pod!.reachablePorts).toBeUndefined();
  });

  it('the stand-in refuses a connection to a port the Service does not list, as kube-proxy forwards none', async (ctx) => {
    if (h.api.servicePortsEnforced !== true) {
      console.warn(`Service port enforcement not tested: ${h.api.servicePortsEnforced} (needs root)`);
      ctx.skip();
    }
    const [, service] = await kubernetesPlugin.provision(
      requests(h.kubeconfig, {
        w1: { servicePorts: [{ port: 5731, count: 1, protocols: ['TCP'] }] },
        w1svc: { serviceOf: 'w1' },
      }),
      h.ctx(),
    );
    await listen(5731);
    await listen(5732);
    const ip = service!.internalIp;
    expect(await connect(ip, 5731)).toBe('connected');
    expect(await connect(ip, 5732)).toBe('ECONNREFUSED');
    // Not the pod's own address: there every port answers.
    expect(await connect('127.0.0.1', 5732)).toBe('connected');
  });
});
