import { parseDuration, parsePercent, parseRate } from '@netbench/plugin-api/cloud-kit';
import { expect, it } from 'vitest';
import { hostSchema } from './host-schema.js';

it('accepts the documented host fields', () => {
  const config = { subnet: '10.213.0.0/24', address: '10.213.0.20', link: { rate: '200mbit', delay: '10ms', jitter: '1ms', loss: '0.1%' }, sshd: true };
  expect(hostSchema.parse(config)).toEqual(config);
  expect(hostSchema.parse({})).toEqual({});
});

it('rejects unknown fields, bad units, jitter without delay and public subnets, naming the field', () => {
  const issues = (value: unknown) => hostSchema.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
  expect(issues({ zone: 'x' })[0]).toMatch(/zone|Unrecognized key/);
  expect(issues({ link: { rate: '200 furlongs' } })).toEqual(['link.rate: expected a rate in bits (200mbit, 1gbit, 500kbit, 100Mbit/s) or bytes spelled out (10MByte/s)']);
  expect(issues({ link: { rate: '100Mbps' } })).toEqual([
    "link.rate: '100Mbps' is ambiguous: tc reads it as bytes per second (800 Mbit/s), most people mean bits (100 Mbit/s); write 100mbit for bits or 100MByte/s for bytes per second",
  ]);
  expect(issues({ link: { delay: '10' } })[0]).toMatch(/^link\.delay: expected a duration/);
  expect(issues({ link: { loss: '101%' } })[0]).toMatch(/^link\.loss: expected a percentage/);
  expect(issues({ link: { jitter: '1ms' } })).toEqual(['link.jitter: jitter needs delay (netem varies the delay it adds)']);
  expect(issues({ link: { rate: '1mbit', bogus: 1 } })[0]).toMatch(/bogus|Unrecognized key/);
  expect(issues({ subnet: '8.8.8.0/24' })[0]).toMatch(/^subnet: the lab subnet must be a private range/);
  expect(issues({ subnet: '10.213.0.1/24' })[0]).toMatch(/^subnet: expected an IPv4 subnet/);
  expect(issues({ address: '10.213.0.256' })[0]).toMatch(/^address: expected an IPv4 address/);
  expect(issues({ sshd: 'yes' })[0]).toMatch(/^sshd:/);
});

it('reads tc units into numbers', () => {
  expect(parseRate('200mbit')).toBe(200e6);
  expect(parseRate('1.5Gbit')).toBe(1.5e9);
  expect(parseRate('10MByte/s')).toBe(80e6);
  expect(parseRate('10mbps')).toBeUndefined();
  expect(parseRate('1kibit')).toBe(1024);
  expect(parseRate('0bit')).toBeUndefined();
  expect(parseRate('200')).toBeUndefined();
  expect(parseDuration('10ms')).toBe(10_000);
  expect(parseDuration('250us')).toBe(250);
  expect(parseDuration('0.5s')).toBe(500_000);
  expect(parsePercent('0.1%')).toBe(0.1);
  expect(parsePercent('-1%')).toBeUndefined();
});
