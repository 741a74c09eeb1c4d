import type { RawIssue } from '../issues/spec-error.js';
import { isPlainObject } from '../matrix/placeholders.js';
import { TUNNEL_IP_RE, TUNNEL_TYPES, type TunnelType, tunnelPorts } from '../tunnels/tunnel-schema.js';
import { suggestion } from './did-you-mean.js';

/**
 * Cross-references of `tunnels:` (the entries' own fields are checked by the
 * skeleton): names are unique, `between` names known hosts, and a benchmark
 * with `ip: tunnel:NAME` names a tunnel joining exactly its client and server.
 */
export function checkTunnels(raw: Record<string, unknown>, hostNames: readonly string[]): RawIssue[] {
  const issues: RawIssue[] = [];
  const tunnels = Array.isArray(raw.tunnels) ? raw.tunnels : [];
  const byName = new Map<string, string[]>();
  for (const [index, tunnel] of tunnels.entries()) {
    if (!isPlainObject(tunnel)) continue;
    if (typeof tunnel.name === 'string') {
      if (byName.has(tunnel.name)) issues.push({ path: ['tunnels', index, 'name'], message: `tunnel '${tunnel.name}' is defined twice` });
      const pair = Array.isArray(tunnel.between) ? tunnel.between.filter((h): h is string => typeof h === 'string') : [];
      byName.set(tunnel.name, pair);
    }
    if (!Array.isArray(tunnel.between)) continue;
    for (const [i, host] of tunnel.between.entries()) {
      if (typeof host === 'string' && !hostNames.includes(host)) {
        issues.push({ path: ['tunnels', index, 'between', i], message: `unknown host '${host}'${suggestion(host, hostNames)}; hosts: ${hostNames.join(', ')}` });
      }
    }
  }
  issues.push(...portCollisions(tunnels));
  const benchmarks = Array.isArray(raw.benchmarks) ? raw.benchmarks : [];
  for (const [index, bench] of benchmarks.entries()) {
    if (!isPlainObject(bench) || typeof bench.ip !== 'string') continue;
    const name = TUNNEL_IP_RE.exec(bench.ip)?.[1];
    if (name === undefined) continue;
    const path = ['benchmarks', index, 'ip'];
    const pair = byName.get(name);
    if (!pair) {
      const names = [...byName.keys()];
      issues.push({ path, message: `unknown tunnel '${name}'${suggestion(name, names)}${names.length ? `; tunnels: ${names.join(', ')}` : '; define it under tunnels:'}` });
    } else if (bench.flows !== undefined) {
      // A tunnel joins two hosts; flows measure several pairs at once (and their labels have no tunnel yet).
      issues.push({ path, message: `ip: tunnel:${name} cannot be used with flows: (not supported yet); measure through the tunnel with client and server instead` });
    } else if (typeof bench.client === 'string' && typeof bench.server === 'string' && !(pair.includes(bench.client) && pair.includes(bench.server))) {
      issues.push({ path, message: `tunnel '${name}' joins ${pair.join(' and ')}, not ${bench.client} and ${bench.server}` });
    }
  }
  return issues;
}

/**
 * Every tunnel end binds UDP ports on its host (wireguard and openvpn their
 * port, ipsec IKE and NAT-T): two tunnels sharing a host must not share one.
 */
function portCollisions(tunnels: readonly unknown[]): RawIssue[] {
  const issues: RawIssue[] = [];
  const taken = new Map<string, string>();
  for (const [index, tunnel] of tunnels.entries()) {
    if (!isPlainObject(tunnel) || !TUNNEL_TYPES.includes(tunnel.type as TunnelType) || !Array.isArray(tunnel.between)) continue;
    const port = Number.isInteger(tunnel.port) ? (tunnel.port as number) : undefined;
    const name = typeof tunnel.name === 'string' ? tunnel.name : `#${index}`;
    const clash = new Set<string>();
    for (const host of new Set(tunnel.between.filter((h): h is string => typeof h === 'string'))) {
      for (const p of tunnelPorts(tunnel.type as TunnelType, port)) {
        const other = taken.get(`${host}\u0000${p}`);
        if (other !== undefined) clash.add(`UDP ${p} on ${host} is taken by tunnel '${other}'`);
        else taken.set(`${host}\u0000${p}`, name);
      }
    }
    if (clash.size > 0) {
      issues.push({ path: ['tunnels', index, ...(port !== undefined ? ['port'] : [])], message: `${[...clash].join('; ')}; set another port for this tunnel` });
    }
  }
  return issues;
}
