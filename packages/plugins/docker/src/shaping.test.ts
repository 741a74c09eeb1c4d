import { describe, expect, it } from 'vitest';
import { egressCommands, ingressCommands, shapingLabels, tbfBurstBytes } from './shaping.js';

describe('docker link shaping', () => {
  it('shapes egress with tbf on eth0 and ingress on the host-side veth, from parsed numbers', () => {
    expect(egressCommands({ rate: '200mbit' })).toEqual([['tc', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'tbf', 'rate', '200000000bit', 'burst', String(tbfBurstBytes(200e6)), 'latency', '50ms']]);
    expect(ingressCommands({ ingressRate: '1gbit' }, 'veth1234')).toEqual([['tc', 'qdisc', 'add', 'dev', 'veth1234', 'root', 'handle', '1:', 'tbf', 'rate', '1000000000bit', 'burst', '500000', 'latency', '50ms']]);
    expect(ingressCommands({ rate: '1gbit' }, 'veth1234')).toEqual([]);
  });

  it('puts netem at the root with tbf as its child when delay or loss is asked for', () => {
    const commands = egressCommands({ rate: '10mbit', delay: '5ms', loss: '0.1%' });
    expect(commands.map((c) => c.slice(5, 9))).toEqual([['root', 'handle', '1:', 'netem'], ['parent', '1:1', 'handle', '10:']]);
    expect(commands[0]).toEqual(expect.arrayContaining(['delay', '5000us', 'loss', '0.1%']));
  });

  it('labels samples with the shaping', () => {
    expect(shapingLabels({ rate: '200mbit', ingressRate: '1gbit' })).toEqual({ link_rate: '200mbit', link_ingress_rate: '1gbit', link_qdisc: 'tbf' });
    expect(shapingLabels(undefined)).toEqual({});
  });
});
