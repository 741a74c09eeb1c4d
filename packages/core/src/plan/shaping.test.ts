import { linkRateShaping } from '@netbench/plugin-api/cloud-kit';
import { describe, expect, test } from 'vitest';
import { hostShaping, shapingWarnings } from './shaping.js';
import type { FleetHost, PlannedTrial } from './types.js';

// As the local lab and Docker declare it (`linkShaping: (config) => linkRateShaping(config.link)`).
const host = (id: string, link?: { rate?: string; ingressRate?: string; delay?: string }): FleetHost => {
  const shaping = linkRateShaping(link);
  return { id, name: id, cloud: 'local', config: link ? { link } : {}, ...(shaping ? { shaping } : {}) };
};
const trial = (client: string, server: string, direction?: 'forward' | 'reverse' | 'both'): PlannedTrial =>
  ({ id: 't', client, server, ...(direction ? { traffic: { direction } } : {}) }) as unknown as PlannedTrial;

describe('link shaping in the plan', () => {
  test('shows the declared rate in bits per second and what the spec wrote', () => {
    expect(hostShaping(host('server', { rate: '100mbit' }))).toEqual({ host: 'server', egressBitsPerSecond: 100e6, text: 'egress 100 Mbit/s (link.rate 100mbit)' });
    expect(hostShaping(host('server', { rate: '100MByte/s' }))?.text).toBe('egress 800 Mbit/s (link.rate 100MByte/s)');
    expect(hostShaping(host('c', { ingressRate: '1.5Gbit/s' }))?.text).toBe('ingress 1.5 Gbit/s (link.ingressRate 1.5Gbit/s)');
    expect(hostShaping(host('plain'))).toBeUndefined();
    expect(hostShaping(host('delayed', { delay: '10ms' }))).toBeUndefined();
    // Only the declaration counts: a `link` field no cloud declared shapes nothing the plan knows of.
    expect(hostShaping({ id: 'undeclared', config: { link: { rate: '100mbit' } } } as unknown as FleetHost)).toBeUndefined();
  });

  test('warns when no trial sends bulk traffic out of the shaped host', () => {
    const fleet = [host('client'), host('server', { rate: '100mbit' })];
    const [warning] = shapingWarnings({ fleet, trials: [trial('client', 'server', 'forward'), trial('client', 'server')] });
    expect(warning).toMatch(
      /^hosts\.server\.link\.rate shapes what server sends \(100 Mbit\/s\), but no trial sends bulk traffic from server \(the throughput trials send towards it: client → server\): the shaping is not measured/,
    );
    expect(shapingWarnings({ fleet, trials: [trial('client', 'server')] })[0]).toMatch(/\(no trial measures throughput\)/);
    // A reverse trial's traffic goes server → client: named that way round.
    const shapedClient = [host('client', { rate: '100mbit' }), host('server')];
    expect(shapingWarnings({ fleet: shapedClient, trials: [trial('client', 'server', 'reverse')] })[0]).toMatch(
      /bulk traffic from client \(the throughput trials send towards it: server → client\)/,
    );
  });

  test('is quiet when a trial measures the shaped direction (reverse, both, or the shaped host as client)', () => {
    const fleet = [host('client'), host('server', { rate: '100mbit' })];
    expect(shapingWarnings({ fleet, trials: [trial('client', 'server', 'reverse')] })).toEqual([]);
    expect(shapingWarnings({ fleet, trials: [trial('client', 'server', 'both')] })).toEqual([]);
    expect(shapingWarnings({ fleet, trials: [trial('server', 'client', 'forward')] })).toEqual([]);
    expect(shapingWarnings({ fleet: [host('client'), host('server')], trials: [trial('client', 'server', 'forward')] })).toEqual([]);
  });

  test('ingress shaping is measured by traffic towards the host; flows count one by one', () => {
    const fleet = [host('a', { ingressRate: '50mbit' }), host('b')];
    expect(shapingWarnings({ fleet, trials: [trial('a', 'b', 'forward')] })).toEqual([
      'hosts.a.link.ingressRate shapes what a receives (50 Mbit/s), but no trial sends bulk traffic to a: the shaping is not measured',
    ]);
    expect(shapingWarnings({ fleet, trials: [trial('a', 'b', 'reverse')] })).toEqual([]);
    const flows = {
      id: 't',
      client: 'b',
      server: 'a',
      flows: [
        { client: 'b', server: 'c', traffic: { direction: 'forward' } },
        { client: 'b', server: 'a', traffic: { direction: 'forward' } },
      ],
    } as unknown as PlannedTrial;
    expect(shapingWarnings({ fleet, trials: [flows] })).toEqual([]);
  });
});
