import { describe, expect, it } from 'vitest';
import { missingPermissions, peerPermissions, peerSources, ruleCount, splitPermissions } from './peer-rules.js';

describe('peer rules', () => {
  const peers = [
    { id: 'vm1', cloud: 'gcp', addresses: ['203.0.113.10', '10.128.0.5'] },
    // A static machine whose internal and external address are one, plus an IPv6 one and a name.
    { id: 'lab box', cloud: 'static', addresses: ['203.0.113.10', '2001:DB8::5', 'lab.example.org'] },
  ];

  it('makes /32 and /128 sources once each and sets names aside', () => {
    const { sources, skipped } = peerSources(peers);
    expect(sources.map((s) => [s.cidr, s.family, s.description])).toEqual([
      ['203.0.113.10/32', 4, 'netbench peer vm1 (gcp)'],
      ['10.128.0.5/32', 4, 'netbench peer vm1 (gcp)'],
      ['2001:db8::5/128', 6, 'netbench peer lab box (static)'],
    ]);
    expect(skipped).toEqual(['lab box: lab.example.org']);
    expect(
      peerSources([
        { id: 'x', cloud: 'c', addresses: ['10.0.0.1'] },
        { id: 'y%', cloud: 'c', addresses: ['10.0.0.2'] },
      ]).sources[1]!.description,
    ).toBe('netbench peer y- (c)');
  });

  it('opens TCP but 22, UDP, ICMP for IPv4 and ICMPv6 for IPv6', () => {
    const permissions = peerPermissions(peerSources(peers).sources);
    expect(permissions.map((p) => [p.IpProtocol, p.FromPort, p.ToPort, p.IpRanges?.length ?? 0, p.Ipv6Ranges?.length ?? 0])).toEqual([
      ['tcp', 0, 21, 2, 1],
      ['tcp', 23, 65535, 2, 1],
      ['udp', 0, 65535, 2, 1],
      ['icmp', -1, -1, 2, 0],
      ['icmpv6', -1, -1, 0, 1],
    ]);
    expect(ruleCount(permissions)).toBe(12);
    expect(peerPermissions([])).toEqual([]);
    expect(peerPermissions(peerSources([{ id: 'a', cloud: 'c', addresses: ['192.0.2.1'] }]).sources).map((p) => p.IpProtocol)).toEqual(['tcp', 'tcp', 'udp', 'icmp']);
  });

  it('leaves out rules the group has, by name or number, and sources an all-protocol rule covers', () => {
    const wanted = peerPermissions(peerSources(peers).sources);
    const existing = [
      { IpProtocol: '6', FromPort: 0, ToPort: 21, IpRanges: [{ CidrIp: '203.0.113.10/32' }] },
      { IpProtocol: '58', FromPort: -1, ToPort: -1, Ipv6Ranges: [{ CidrIpv6: '2001:DB8::5/128' }] },
      { IpProtocol: '-1', IpRanges: [{ CidrIp: '10.128.0.5/32' }] },
      // Other ports for the same source do not count.
      { IpProtocol: 'udp', FromPort: 53, ToPort: 53, IpRanges: [{ CidrIp: '203.0.113.10/32' }] },
    ];
    const missing = missingPermissions(wanted, existing);
    const cidrs = (p: (typeof missing)[number]) => [...(p.IpRanges ?? []).map((r) => r.CidrIp), ...(p.Ipv6Ranges ?? []).map((r) => r.CidrIpv6)];
    expect(missing.map((p) => [p.IpProtocol, p.FromPort, cidrs(p)])).toEqual([
      ['tcp', 0, ['2001:db8::5/128']],
      ['tcp', 23, ['203.0.113.10/32', '2001:db8::5/128']],
      ['udp', 0, ['203.0.113.10/32', '2001:db8::5/128']],
      ['icmp', -1, ['203.0.113.10/32']],
    ]);
    expect(missingPermissions(wanted, wanted)).toEqual([]);
  });

  it('splits a batch into one source per rule', () => {
    const split = splitPermissions(peerPermissions(peerSources(peers).sources));
    expect(split).toHaveLength(12);
    expect(split.every((p) => (p.IpRanges?.length ?? 0) + (p.Ipv6Ranges?.length ?? 0) === 1)).toBe(true);
  });
});
