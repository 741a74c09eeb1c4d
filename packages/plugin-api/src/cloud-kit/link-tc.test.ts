import { describe, expect, it } from 'vitest';
import { defaultBurstBytes } from './link-queue.js';
import { linkNetemFields, linkRateShaping, linkSchema } from './link-schema.js';
import { linkEgressCommands, linkIngressCommands, linkLabels } from './link-tc.js';

const netns = ['tc', '-n', 'ns1'];

describe('a shaped link: one schema, tc argv and labels for every cloud that shapes with tc', () => {
  it('shapes rate alone with tbf at the root of eth0, from re-formatted numbers', () => {
    expect(linkEgressCommands(netns, 'eth0', { rate: '200mbit' })).toEqual([
      ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'tbf', 'rate', '200000000bit', 'burst', '100000', 'latency', '50ms'],
    ]);
    // Inside the container's namespace (Docker): the same qdisc, with plain `tc`.
    expect(linkEgressCommands(['tc'], 'eth0', { rate: '200mbit' })).toEqual([
      ['tc', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'tbf', 'rate', '200000000bit', 'burst', String(defaultBurstBytes(200e6)), 'latency', '50ms'],
    ]);
    expect(linkEgressCommands(netns, 'eth0', undefined)).toEqual([]);
  });

  it('puts netem at the root and tbf under it when delay and rate are both asked', () => {
    expect(linkEgressCommands(netns, 'eth0', { rate: '10mbit', delay: '10ms', jitter: '1ms', loss: '0.1%' })).toEqual([
      ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'netem', 'delay', '10000us', '1000us', 'loss', '0.1%'],
      ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'parent', '1:1', 'handle', '10:', 'tbf', 'rate', '10000000bit', 'burst', '65536', 'latency', '50ms'],
    ]);
    expect(linkLabels({ rate: '10mbit', loss: '1%' })).toEqual({ link_rate: '10mbit', link_loss: '1%', link_qdisc: 'tbf' });
    expect(linkLabels(undefined)).toEqual({});
  });

  it('shapes what a host receives on the far side of its veth, with the same queue fields', () => {
    const link = { ingressRate: '100mbit', burst: '64kb', latency: '200ms' };
    expect(linkIngressCommands(['tc', '-n', 'nb-hub'], 'nbv-x-1', link)).toEqual([
      ['tc', '-n', 'nb-hub', 'qdisc', 'add', 'dev', 'nbv-x-1', 'root', 'handle', '1:', 'tbf', 'rate', '100000000bit', 'burst', '65536', 'latency', '200000us'],
    ]);
    expect(linkIngressCommands(['tc'], 'veth1234', { ingressRate: '1gbit' })).toEqual([
      ['tc', 'qdisc', 'add', 'dev', 'veth1234', 'root', 'handle', '1:', 'tbf', 'rate', '1000000000bit', 'burst', '500000', 'latency', '50ms'],
    ]);
    // Egress stays unshaped without `rate`, ingress without `ingressRate`; labels name both rates and the queue.
    expect(linkEgressCommands(netns, 'eth0', link)).toEqual([]);
    expect(linkIngressCommands(['tc'], 'veth1234', { rate: '10mbit' })).toEqual([]);
    expect(linkLabels(link)).toEqual({ link_ingress_rate: '100mbit', link_qdisc: 'tbf', link_burst: '64kb', link_latency: '200ms' });
  });

  it('passes reorder, duplicate and corrupt to netem as re-formatted percentages, with an AQM under it', () => {
    const link = linkSchema.parse({ delay: '10ms', reorder: '25%', duplicate: '1%', corrupt: '0.1%', rate: '50mbit', qdisc: 'cake' });
    expect(linkEgressCommands(netns, 'eth0', link)).toEqual([
      ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'netem', 'delay', '10000us', 'reorder', '25%', 'duplicate', '1%', 'corrupt', '0.1%'],
      ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'parent', '1:1', 'handle', '10:', 'cake', 'bandwidth', '50000000bit'],
    ]);
    expect(linkLabels(link)).toMatchObject({ link_reorder: '25%', link_duplicate: '1%', link_corrupt: '0.1%', link_qdisc: 'cake' });
    expect(linkNetemFields(link)).toEqual(['delay', 'reorder', 'duplicate', 'corrupt']);
  });

  it('refuses what tc would misread or netem cannot do, naming the field', () => {
    expect(linkSchema.safeParse({ reorder: '25%' }).error?.issues.map((i) => i.message)).toEqual([
      'reorder needs delay (netem reorders by sending some packets without the delay)',
    ]);
    expect(linkSchema.safeParse({ jitter: '1ms' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['jitter']);
    expect(linkSchema.safeParse({ rate: '100Mbps' }).error?.issues[0]?.message).toMatch(/ambiguous/);
    expect(linkSchema.safeParse({ burst: '64kb' }).error?.issues[0]?.message).toMatch(/set rate too/);
  });

  it('declares its rates for the plan: bits per second, the field that set each, and what the spec wrote', () => {
    expect(linkRateShaping({ rate: '100mbit' })).toEqual({ egress: { bitsPerSecond: 100e6, field: 'link.rate', written: '100mbit' } });
    expect(linkRateShaping({ rate: '100MByte/s', ingressRate: '1.5Gbit/s' })).toEqual({
      egress: { bitsPerSecond: 800e6, field: 'link.rate', written: '100MByte/s' },
      ingress: { bitsPerSecond: 1.5e9, field: 'link.ingressRate', written: '1.5Gbit/s' },
    });
    expect(linkRateShaping({ ingressRate: '50mbit' }, 'shape')?.ingress?.field).toBe('shape.ingressRate');
    // netem alone limits no rate.
    expect(linkRateShaping(linkSchema.parse({ delay: '10ms' }))).toBeUndefined();
    expect(linkRateShaping(undefined)).toBeUndefined();
  });
});
