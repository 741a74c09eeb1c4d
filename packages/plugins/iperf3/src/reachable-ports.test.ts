// A server host that other hosts reach only on some ports (a Kubernetes
// Service lists its ports): iperf3's servers start on those ports only, and a
// pool with none of them is refused before any server starts.
import { type Host, processHost } from '@netbench/plugin-api';
import { withToolServer } from '@netbench/plugin-api/tool-kit';
import { describe, expect, it } from 'vitest';
import { PortPool } from './port-pool.js';
import { IPERF3_SERVER } from './server.js';
import { serverArgv } from './trial-settings.js';

const local = processHost({ id: 's', name: 'server', cloud: 'kubernetes', internalIp: '127.0.0.1' });
const behindService = (ranges: Host['reachablePorts']): Host => ({ ...local, reachablePorts: ranges });

describe('iperf3 servers on a host reachable only on some ports', () => {
  it('takes the first reachable port of its pool, and the next trial the next reachable one', async () => {
    const host = behindService([
      { first: 5611, last: 5612, protocols: ['tcp', 'udp'] },
      { first: 20000, last: 20015, protocols: ['tcp'] },
    ]);
    const pool = new PortPool(5601, 5700);
    const signal = AbortSignal.timeout(20_000);
    const ports = await withToolServer(
      host,
      pool,
      (p) => serverArgv(p),
      IPERF3_SERVER,
      signal,
      async (a) =>
        withToolServer(
          host,
          pool,
          (p) => serverArgv(p),
          IPERF3_SERVER,
          signal,
          async (b) => [a.port, b.port],
        ),
    );
    expect(ports).toEqual([5611, 5612]);
  });

  it('is refused at once, naming the reachable ports, when none of its pool is among them', async () => {
    const host = behindService([{ first: 5201, last: 5208, protocols: ['tcp', 'udp'] }]);
    await expect(
      withToolServer(
        host,
        new PortPool(5601, 5700),
        (p) => serverArgv(p),
        IPERF3_SERVER,
        AbortSignal.timeout(20_000),
        async () => 0,
      ),
    ).rejects.toThrow(/iperf3 needs a TCP port in 5601-5700 on server, but that host accepts connections only on 5201-5208 tcp\/udp .*servicePorts/);
  });
});
