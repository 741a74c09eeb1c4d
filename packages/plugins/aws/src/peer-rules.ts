import { isIP } from 'node:net';
import type { IpPermission } from '@aws-sdk/client-ec2';
import type { PeerHost } from '@netbench/plugin-api';

/** One source address to let in, with the rule description AWS shows next to it. */
export interface PeerSource {
  readonly cidr: string;
  readonly family: 4 | 6;
  readonly description: string;
}

/**
 * The peers' addresses as `/32` and `/128` sources, once each (a static
 * machine's internal and external address can be the same). Anything that is
 * not an IP address (a host name) cannot be a security group source: it is
 * returned in `skipped` for the caller to warn about.
 */
export function peerSources(peers: readonly PeerHost[]): { sources: PeerSource[]; skipped: string[] } {
  const seen = new Set<string>();
  const sources: PeerSource[] = [];
  const skipped: string[] = [];
  for (const peer of peers) {
    for (const address of peer.addresses) {
      const family = isIP(address);
      if (family === 0) {
        skipped.push(`${peer.id}: ${address}`);
        continue;
      }
      const cidr = family === 4 ? `${address}/32` : `${address.toLowerCase()}/128`;
      if (seen.has(cidr)) continue;
      seen.add(cidr);
      sources.push({ cidr, family: family === 4 ? 4 : 6, description: describe(peer) });
    }
  }
  return { sources, skipped };
}

/** EC2 rule descriptions allow `a-zA-Z0-9. _-:/()#,@[]+=&;{}!$*` and 255 characters. */
function describe(peer: PeerHost): string {
  return `netbench peer ${peer.id} (${peer.cloud})`.replace(/[^a-zA-Z0-9. _\-:/()#,@[\]+=&;{}!$*]/g, '-').slice(0, 255);
}

/**
 * What the run's hosts accept from each other — tool ports and ICMP — for
 * sources outside the run: every TCP port except SSH (22 stays for the
 * controller alone), every UDP port, ICMP for IPv4 sources and ICMPv6 for
 * IPv6 ones. Four rules per address count against the group's rule quota
 * (60 per direction and family by default).
 */
export function peerPermissions(sources: readonly PeerSource[]): IpPermission[] {
  const v4 = sources.filter((s) => s.family === 4).map((s) => ({ CidrIp: s.cidr, Description: s.description }));
  const v6 = sources.filter((s) => s.family === 6).map((s) => ({ CidrIpv6: s.cidr, Description: s.description }));
  const ranges = { ...(v4.length ? { IpRanges: v4 } : {}), ...(v6.length ? { Ipv6Ranges: v6 } : {}) };
  if (v4.length + v6.length === 0) return [];
  return [
    { IpProtocol: 'tcp', FromPort: 0, ToPort: 21, ...ranges },
    { IpProtocol: 'tcp', FromPort: 23, ToPort: 65535, ...ranges },
    { IpProtocol: 'udp', FromPort: 0, ToPort: 65535, ...ranges },
    ...(v4.length ? [{ IpProtocol: 'icmp', FromPort: -1, ToPort: -1, IpRanges: v4 }] : []),
    ...(v6.length ? [{ IpProtocol: 'icmpv6', FromPort: -1, ToPort: -1, Ipv6Ranges: v6 }] : []),
  ];
}

/** AWS answers with names or numbers depending on how a rule was written. */
const PROTOCOL_NAMES: Readonly<Record<string, string>> = { '6': 'tcp', '17': 'udp', '1': 'icmp', '58': 'icmpv6' };

function protocolOf(permission: IpPermission): string {
  const protocol = (permission.IpProtocol ?? '').toLowerCase();
  return PROTOCOL_NAMES[protocol] ?? protocol;
}

/** One (protocol, ports, source) rule, as a comparable key. */
function ruleKey(protocol: string, from: number | undefined, to: number | undefined, cidr: string): string {
  const ports = protocol === 'icmp' || protocol === 'icmpv6' ? '' : `${from ?? ''}-${to ?? ''}`;
  return `${protocol} ${ports} ${cidr}`;
}

function cidrsOf(permission: IpPermission): string[] {
  return [
    ...(permission.IpRanges ?? []).flatMap((r) => (r.CidrIp ? [r.CidrIp] : [])),
    ...(permission.Ipv6Ranges ?? []).flatMap((r) => (r.CidrIpv6 ? [r.CidrIpv6.toLowerCase()] : [])),
  ];
}

/**
 * `wanted` without the rules the group already has (exactly, or through an
 * all-protocol rule for the same source), so a repeated call sends nothing
 * and a call with one new peer sends only that peer: EC2 refuses a whole
 * request when any one rule of it exists.
 */
export function missingPermissions(wanted: readonly IpPermission[], existing: readonly IpPermission[]): IpPermission[] {
  const have = new Set<string>();
  const everything = new Set<string>();
  for (const permission of existing) {
    const protocol = protocolOf(permission);
    for (const cidr of cidrsOf(permission)) {
      if (protocol === '-1') everything.add(cidr);
      else have.add(ruleKey(protocol, permission.FromPort, permission.ToPort, cidr));
    }
  }
  const absent = (protocol: string, permission: IpPermission, cidr: string | undefined) =>
    cidr !== undefined && !everything.has(cidr.toLowerCase()) && !have.has(ruleKey(protocol, permission.FromPort, permission.ToPort, cidr.toLowerCase()));
  return wanted.flatMap((permission) => {
    const protocol = protocolOf(permission);
    const v4 = (permission.IpRanges ?? []).filter((r) => absent(protocol, permission, r.CidrIp));
    const v6 = (permission.Ipv6Ranges ?? []).filter((r) => absent(protocol, permission, r.CidrIpv6));
    if (v4.length + v6.length === 0) return [];
    const { IpRanges: _v4, Ipv6Ranges: _v6, ...rest } = permission;
    return [{ ...rest, ...(v4.length ? { IpRanges: v4 } : {}), ...(v6.length ? { Ipv6Ranges: v6 } : {}) }];
  });
}

/** Each (rule, source) on its own: the fallback when a batch hits a rule that appeared meanwhile. */
export function splitPermissions(permissions: readonly IpPermission[]): IpPermission[] {
  return permissions.flatMap((permission) => {
    const { IpRanges, Ipv6Ranges, ...rest } = permission;
    return [...(IpRanges ?? []).map((r) => ({ ...rest, IpRanges: [r] })), ...(Ipv6Ranges ?? []).map((r) => ({ ...rest, Ipv6Ranges: [r] }))];
  });
}

/** How many source rules a permission list holds (what the group's quota counts). */
export function ruleCount(permissions: readonly IpPermission[]): number {
  return permissions.reduce((n, p) => n + (p.IpRanges?.length ?? 0) + (p.Ipv6Ranges?.length ?? 0), 0);
}
