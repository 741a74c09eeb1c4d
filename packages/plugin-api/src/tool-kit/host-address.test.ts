import { describe, expect, it } from 'vitest';
import { assertHostAddress, hostAddressSchema, ipv4CidrSchema, isHostAddress, isIpv4Cidr } from './host-address.js';

describe('host addresses', () => {
  it('takes IPv4, IPv6 (with a zone) and DNS names', () => {
    for (const ok of ['10.0.0.2', '127.0.0.1', '::1', 'fd00::2', 'fe80::1%eth0', 'db-1.example.internal', 'host', 'a.b.', 'ip-10-0-0-1.ec2.internal', '_srv.example.com']) {
      expect(isHostAddress(ok), ok).toBe(true);
    }
  });

  it('refuses what a tool could read as an option, a list or a shell word', () => {
    for (const bad of [
      '-f/etc/passwd',
      '-f',
      '--help',
      '',
      ' 10.0.0.2',
      '10.0.0.2 ',
      'host,4',
      'a;b',
      'x y',
      'a..b',
      '-host.example',
      'host-.example',
      '[::1]',
      `${'a'.repeat(64)}.example`,
      'a/b',
      'host\n-f',
    ]) {
      expect(isHostAddress(bad), JSON.stringify(bad)).toBe(false);
    }
    expect(() => assertHostAddress('-f/etc/passwd', 'fping target')).toThrow('fping target "-f/etc/passwd" is not an IP address or host name');
    expect(hostAddressSchema.safeParse('-f/etc/passwd').success).toBe(false);
    expect(hostAddressSchema.safeParse('10.0.0.2').success).toBe(true);
  });

  it('checks IPv4 CIDRs by value, not only by shape', () => {
    expect(isIpv4Cidr('203.0.113.7/32')).toBe(true);
    expect(isIpv4Cidr('0.0.0.0/0')).toBe(true);
    for (const bad of ['999.0.0.1/32', '10.0.0.1/33', '10.0.0.1', '-f/32', '10.0.0.1/32 ']) expect(isIpv4Cidr(bad), bad).toBe(false);
    expect(ipv4CidrSchema.safeParse('300.1.1.1/8').success).toBe(false);
  });
});
