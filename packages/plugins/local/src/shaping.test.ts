import { expect, it } from 'vitest';
import { ingressCommands, shapingCommands, shapingLabels, tbfBurstBytes } from './shaping.js';
import { linkSchema } from './host-schema.js';

it('shapes rate alone with tbf at the root of eth0, from re-formatted numbers', () => {
  expect(shapingCommands('ns1', { rate: '200mbit' })).toEqual([
    ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'tbf', 'rate', '200000000bit', 'burst', '100000', 'latency', '50ms'],
  ]);
  expect(tbfBurstBytes(1e6)).toBe(64 * 1024);
});

it('puts netem at the root and tbf under it when delay and rate are both asked', () => {
  expect(shapingCommands('ns1', { rate: '10mbit', delay: '10ms', jitter: '1ms', loss: '0.1%' })).toEqual([
    ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'netem', 'delay', '10000us', '1000us', 'loss', '0.1%'],
    ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'parent', '1:1', 'handle', '10:', 'tbf', 'rate', '10000000bit', 'burst', '65536', 'latency', '50ms'],
  ]);
  expect(shapingCommands('ns1', undefined)).toEqual([]);
  expect(shapingLabels({ rate: '10mbit', loss: '1%' })).toEqual({ link_rate: '10mbit', link_loss: '1%', link_qdisc: 'tbf' });
});

it('shapes what a host receives on the bridge side of its veth, with the same queue fields', () => {
  const link = { ingressRate: '100mbit', burst: '64kb', latency: '200ms' };
  expect(ingressCommands(link, 'nbv-x-1', 'nb-hub')).toEqual([
    ['tc', '-n', 'nb-hub', 'qdisc', 'add', 'dev', 'nbv-x-1', 'root', 'handle', '1:', 'tbf', 'rate', '100000000bit', 'burst', '65536', 'latency', '200000us'],
  ]);
  // Egress stays unshaped without `rate`; labels name both rates and the queue.
  expect(shapingCommands('ns1', link)).toEqual([]);
  expect(ingressCommands({ rate: '10mbit' }, 'nbv-x-1', 'nb-hub')).toEqual([]);
  expect(shapingLabels(link)).toEqual({ link_ingress_rate: '100mbit', link_qdisc: 'tbf', link_burst: '64kb', link_latency: '200ms' });
});

it('passes reorder, duplicate and corrupt to netem as re-formatted percentages, with an AQM under it', () => {
  const link = linkSchema.parse({ delay: '10ms', reorder: '25%', duplicate: '1%', corrupt: '0.1%', rate: '50mbit', qdisc: 'cake' });
  expect(shapingCommands('ns1', link)).toEqual([
    ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'netem', 'delay', '10000us', 'reorder', '25%', 'duplicate', '1%', 'corrupt', '0.1%'],
    ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'parent', '1:1', 'handle', '10:', 'cake', 'bandwidth', '50000000bit'],
  ]);
  expect(shapingLabels(link)).toMatchObject({ link_reorder: '25%', link_duplicate: '1%', link_corrupt: '0.1%', link_qdisc: 'cake' });
  expect(linkSchema.safeParse({ reorder: '25%' }).error?.issues.map((i) => i.message)).toEqual(['reorder needs delay (netem reorders by sending some packets without the delay)']);
});
