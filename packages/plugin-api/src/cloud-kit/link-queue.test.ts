import { describe, expect, it } from 'vitest';
import { z } from '../plugin/zod.js';
import { checkLinkQueue, linkQueueIssues, linkQueueLabels, linkQueueShape, parseSize, rateQueueCommands } from './link-queue.js';

const schema = z.strictObject({ rate: z.string().optional(), ...linkQueueShape }).superRefine(checkLinkQueue);
const messages = (link: unknown) => {
  const result = schema.safeParse(link);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('link queue fields', () => {
  it('parses tc sizes into bytes (k = 1024)', () => {
    expect([parseSize('1500'), parseSize('1500b'), parseSize('64kb'), parseSize('64k'), parseSize('1.5mb'), parseSize('32kbit')]).toEqual([
      1500, 1500, 65_536, 65_536, 1_572_864, 4096,
    ]);
    expect(parseSize('64 kilo')).toBeUndefined();
    expect(parseSize('0b')).toBeUndefined();
    expect(parseSize('-5')).toBeUndefined();
  });

  it('builds tbf with burst and limit, or latency (default 50ms), from parsed numbers', () => {
    expect(rateQueueCommands(['tc', '-n', 'ns1'], 'eth0', 100e6, { rate: '100mbit', burst: '32kb', limit: '1mb' })).toEqual([
      ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'tbf', 'rate', '100000000bit', 'burst', '32768', 'limit', '1048576'],
    ]);
    expect(rateQueueCommands(['tc'], 'eth0', 100e6, { rate: '100mbit', latency: '200ms' })[0]!.slice(-6)).toEqual([
      'rate',
      '100000000bit',
      'burst',
      '65536',
      'latency',
      '200000us',
    ]);
    expect(rateQueueCommands(['tc'], 'eth0', 1e9, {}).at(0)!.slice(-4)).toEqual(['burst', '500000', 'latency', '50ms']);
    // Under netem's class: handles move to 10:.
    expect(rateQueueCommands(['tc'], 'eth0', 1e6, { limit: '10kb' }, '1:1')[0]!.slice(4, 9)).toEqual(['eth0', 'parent', '1:1', 'handle', '10:']);
  });

  it('builds htb: root qdisc, the rate class, and the child with its limit', () => {
    expect(rateQueueCommands(['tc', '-n', 'ns1'], 'eth0', 100e6, { rate: '100mbit', qdisc: 'htb', burst: '15kb', child: 'pfifo', limit: 100 })).toEqual([
      ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'htb', 'default', '1'],
      ['tc', '-n', 'ns1', 'class', 'add', 'dev', 'eth0', 'parent', '1:', 'classid', '1:1', 'htb', 'rate', '100000000bit', 'ceil', '100000000bit', 'burst', '15360'],
      ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'parent', '1:1', 'handle', '10:', 'pfifo', 'limit', '100'],
    ]);
    expect(rateQueueCommands(['tc'], 'eth0', 1e6, { qdisc: 'htb', child: 'bfifo', limit: '64kb' }).at(-1)!.slice(-3)).toEqual(['bfifo', 'limit', '65536']);
    expect(rateQueueCommands(['tc'], 'eth0', 1e6, { qdisc: 'htb', child: 'fq_codel' }).at(-1)!.at(-1)).toBe('fq_codel');
    expect(rateQueueCommands(['tc'], 'eth0', 1e6, { qdisc: 'htb' })).toHaveLength(2);
    const underNetem = rateQueueCommands(['tc'], 'eth0', 1e6, { qdisc: 'htb', child: 'pfifo' }, '1:1');
    expect(underNetem.map((c) => c.slice(4).join(' '))).toEqual([
      'eth0 parent 1:1 handle 10: htb default 1',
      'eth0 parent 10: classid 10:1 htb rate 1000000bit ceil 1000000bit burst 65536',
      'eth0 parent 10:1 handle 20: pfifo',
    ]);
  });

  it('refuses what tc would refuse, naming the field', () => {
    expect(messages({ rate: '10mbit', limit: '1mb', latency: '10ms' })).toEqual(['latency: tbf takes limit or latency, not both (tc: one decides the other)']);
    expect(messages({ burst: '10kb' })).toEqual(['burst: burst shape the queue of a rate limit: set rate too']);
    expect(messages({ rate: '10mbit', limit: 100 })).toEqual(['limit: tbf limit is bytes: write a size such as 1mb or 100kb']);
    expect(messages({ rate: '10mbit', child: 'pfifo' })).toEqual(['child: child needs qdisc: htb (tbf takes no child here)']);
    expect(messages({ rate: '10mbit', qdisc: 'htb', latency: '10ms' })[0]).toMatch(/^latency: latency is tbf's/);
    expect(messages({ rate: '10mbit', qdisc: 'htb', limit: 100 })[0]).toMatch(/^limit: with htb, limit is the child qdisc's/);
    expect(messages({ rate: '10mbit', qdisc: 'htb', child: 'pfifo', limit: '1mb' })[0]).toMatch(/pfifo limit is packets/);
    expect(messages({ rate: '10mbit', qdisc: 'htb', child: 'bfifo', limit: 10 })[0]).toMatch(/bfifo limit is bytes/);
    expect(messages({ rate: '10mbit', qdisc: 'htb', child: 'red' })[0]).toMatch(/^child: /);
    expect(messages({ rate: '10mbit', burst: 'big' })[0]).toMatch(/^burst: expected a size/);
    expect(linkQueueIssues({ rate: '1gbit', qdisc: 'htb', child: 'bfifo', limit: '100kb', burst: '20kb' })).toEqual([]);
  });

  it('labels the queue whenever a rate is set', () => {
    expect(linkQueueLabels({ rate: '10mbit' })).toEqual({ link_qdisc: 'tbf' });
    expect(linkQueueLabels({ rate: '10mbit', qdisc: 'htb', child: 'pfifo', limit: 50, burst: '15kb' })).toEqual({
      link_qdisc: 'htb',
      link_child: 'pfifo',
      link_limit: '50',
      link_burst: '15kb',
    });
    expect(linkQueueLabels(undefined)).toEqual({});
  });
});

describe("an AQM as the link's qdisc", () => {
  it('cake shapes by itself; fq_codel, pie and fq sit under an htb class at the rate (with a packet limit)', () => {
    expect(rateQueueCommands(['tc', '-n', 'ns1'], 'eth0', 50e6, { rate: '50mbit', qdisc: 'cake' })).toEqual([
      ['tc', '-n', 'ns1', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'cake', 'bandwidth', '50000000bit'],
    ]);
    expect(rateQueueCommands(['tc'], 'eth0', 50e6, { rate: '50mbit', qdisc: 'fq_codel', limit: 1000 })).toEqual([
      ['tc', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'htb', 'default', '1'],
      ['tc', 'class', 'add', 'dev', 'eth0', 'parent', '1:', 'classid', '1:1', 'htb', 'rate', '50000000bit', 'ceil', '50000000bit', 'burst', '65536'],
      ['tc', 'qdisc', 'add', 'dev', 'eth0', 'parent', '1:1', 'handle', '10:', 'fq_codel', 'limit', '1000'],
    ]);
    expect(rateQueueCommands(['tc'], 'eth0', 50e6, { rate: '50mbit', qdisc: 'pie' }).at(-1)!.slice(-3)).toEqual(['handle', '10:', 'pie']);
    // Under netem: cake takes netem's class.
    expect(rateQueueCommands(['tc'], 'eth0', 50e6, { rate: '50mbit', qdisc: 'cake' }, '1:1')[0]!.slice(4, 12)).toEqual([
      'eth0',
      'parent',
      '1:1',
      'handle',
      '10:',
      'cake',
      'bandwidth',
      '50000000bit',
    ]);
    expect(linkQueueLabels({ rate: '50mbit', qdisc: 'cake' })).toEqual({ link_qdisc: 'cake' });
  });

  it('refuses the fields an AQM does not take, each by name', () => {
    expect(messages({ rate: '50mbit', qdisc: 'cake', limit: '1mb', child: 'pfifo' })).toEqual([
      'limit: cake shapes and queues by itself (cake bandwidth RATE): drop limit',
      'child: cake shapes and queues by itself (cake bandwidth RATE): drop child',
    ]);
    expect(messages({ rate: '50mbit', qdisc: 'fq_codel', latency: '10ms', limit: '1mb' })).toEqual([
      "latency: latency is tbf's; fq_codel manages its own queue delay",
      'limit: fq_codel limit is packets: write a number such as 1000',
    ]);
    expect(messages({ qdisc: 'cake' })).toEqual(['qdisc: qdisc shape the queue of a rate limit: set rate too']);
    expect(messages({ rate: '50mbit', qdisc: 'fq' })).toEqual([]);
  });
});
