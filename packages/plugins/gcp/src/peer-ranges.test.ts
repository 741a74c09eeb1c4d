import { describe, expect, it } from 'vitest';
import { peerRanges } from './peer-ranges.js';

describe('peerRanges', () => {
  it('makes /32 and /128 ranges per family, deduplicated in order, IPv4-mapped IPv6 as IPv4', () => {
    const r = peerRanges([
      { id: 'a', cloud: 'aws', addresses: ['203.0.113.10', '10.0.1.5'] },
      { id: 'b', cloud: 'azure', addresses: ['2001:DB8:0:1::5', '::ffff:203.0.113.10', '10.0.1.5'] },
    ]);
    expect(r.ipv4).toEqual(['203.0.113.10/32', '10.0.1.5/32']);
    expect(r.ipv6).toEqual(['2001:db8:0:1::5/128']);
    expect(r.admitted).toEqual(['a', 'b']);
    expect(r.skipped).toEqual([]);
  });

  it('leaves out what no packet comes from and what is not an address, saying why', () => {
    const r = peerRanges([
      { id: 'lab', cloud: 'local', addresses: ['127.0.0.1', '::1', 'fe80::1', '169.254.169.254', '0.0.0.0', '239.1.1.1', 'ff02::1'] },
      { id: 'named', cloud: 'static', addresses: ['bench.example.org', '198.51.100.4'] },
    ]);
    expect(r.ipv4).toEqual(['198.51.100.4/32']);
    expect(r.ipv6).toEqual([]);
    expect(r.admitted).toEqual(['named']);
    expect(r.skipped.map((s) => s.address)).toEqual(['127.0.0.1', '::1', 'fe80::1', '169.254.169.254', '0.0.0.0', '239.1.1.1', 'ff02::1', 'bench.example.org']);
    expect(r.skipped.at(-1)!.reason).toMatch(/not an IP address/);
    expect(r.skipped[0]!.reason).toMatch(/loopback/);
  });
});
