// node:crypto is loaded on first use: importing it cost every run ~9 ms of start-up, and a local run needs none of it.
const crypto = () => process.getBuiltinModule('node:crypto');

import type { Host, LedgerFile, LedgerResource } from '@netbench/plugin-api';
import { NetbenchError, RUN_FILES } from '@netbench/plugin-api';
import { runLockText } from '../run-id/run-lock.js';
import { type EndpointUndo, makeDirArgv } from './commands.js';
import { detectImplementation } from './detect.js';
import { makeEndpoint, tunnelRoot } from './endpoint.js';
import { ipsecUp } from './ipsec.js';
import { openvpnUp } from './openvpn.js';
import { ENDPOINT_RECORD, ENDPOINT_RESOURCE, type EndpointData, type RunningTunnel, TUNNELS_LEDGER } from './running-tunnel.js';
import { must, type Side, writePrivate } from './side.js';
import type { ResolvedTunnel, TunnelImplementation } from './tunnel-schema.js';
import { wireguardSocket, wireguardUp } from './wireguard.js';

export interface TunnelUpContext {
  readonly runId: string;
  readonly ledger: LedgerFile;
  readonly signal: AbortSignal;
}

/**
 * Set one tunnel up between two provisioned hosts. Both ends are in the
 * ledger (intent) before anything exists on either host; `running` is
 * filled as it goes so teardown finds whatever was made, even on failure.
 */
export async function tunnelUp(tunnel: ResolvedTunnel, hosts: readonly [Host, Host], ctx: TunnelUpContext, onRunning: (running: RunningTunnel) => void): Promise<RunningTunnel> {
  const [a, b] = hosts;
  const implementations = await Promise.all(hosts.map((host) => detectImplementation(host, tunnel, ctx.signal)));
  // Both ends must speak the same data path only as far as the wire goes; a kernel end and a userspace end interoperate.
  const implementation: TunnelImplementation = implementations.includes('userspace') ? 'userspace' : 'kernel';
  const endpoints = [makeEndpoint(ctx.runId, tunnel, 0, a.id, a.internalIp, b.internalIp), makeEndpoint(ctx.runId, tunnel, 1, b.id, b.internalIp, a.internalIp)] as const;
  const resources: LedgerResource[] = endpoints.map((ep, i) => {
    const undo: EndpointUndo = {
      dir: ep.dir,
      iface: ep.iface,
      kernelLink: tunnel.type === 'wireguard' && implementations[i] === 'kernel',
      ...(tunnel.type === 'wireguard' && implementations[i] === 'userspace' ? { socket: wireguardSocket(ep.iface) } : {}),
      ...(tunnel.type === 'ipsec' && implementations[i] === 'kernel' ? { loAddress: ep.inner } : {}),
    };
    const data: EndpointData = { ...undo, runId: ctx.runId, tunnel: tunnel.name, type: tunnel.type, sameMachine: hosts[i]!.cloud === 'local' };
    return { type: ENDPOINT_RESOURCE, id: `${tunnel.name}-${i === 0 ? 'a' : 'b'}`, host: ep.host, data: { ...data } };
  });
  const running: RunningTunnel = { tunnel, hosts: [a.id, b.id], implementation, resources, up: false };
  for (const resource of resources) await ctx.ledger.append(TUNNELS_LEDGER, 'intent', resource);
  onRunning(running);

  const sides = endpoints.map((ep, i): Side => ({ host: hosts[i]!, ep, tunnel, implementation: implementations[i]!, signal: ctx.signal }));
  // Each end records the run's process (as the run folder's run.lock does): `cleanup --all` from another runs folder spares a live run.
  const lock = runLockText(ctx.runId);
  await Promise.all(
    sides.map(async (side, i) => {
      await must(side, makeDirArgv(tunnelRoot(ctx.runId), side.ep.dir));
      await writePrivate(side, `${side.ep.dir}/${RUN_FILES.lock}`, lock);
      await writePrivate(side, `${side.ep.dir}/${ENDPOINT_RECORD}`, `${JSON.stringify(resources[i])}\n`);
    }),
  );
  const [sa, sb] = sides as [Side, Side];
  if (tunnel.type === 'wireguard') await wireguardUp(sa, sb);
  else if (tunnel.type === 'openvpn') await openvpnUp(sa, sb);
  // The pre-shared key lives in this process and in the two 0600 files only.
  else await ipsecUp(sa, sb, crypto().randomBytes(32).toString('hex'));
  for (const resource of resources) await ctx.ledger.append(TUNNELS_LEDGER, 'created', resource);
  running.up = true;
  return running;
}

/** Fleet hosts of a tunnel's `between`: each name must be exactly one provisioned host. */
export function tunnelHosts(tunnel: ResolvedTunnel, hosts: ReadonlyMap<string, Host>): [Host, Host] | string {
  const pick = (name: string): Host | string => {
    const found = [...hosts.values()].filter((h) => h.name === name);
    if (found.length === 0) return `host '${name}' is not provisioned (no benchmark uses it)`;
    if (found.length > 1) return `host '${name}' is provisioned ${found.length} times (its fields vary with the matrix); a tunnel joins two single hosts`;
    return found[0]!;
  };
  const a = pick(tunnel.between[0]);
  const b = pick(tunnel.between[1]);
  if (typeof a === 'string') return a;
  if (typeof b === 'string') return b;
  return [a, b];
}

export function tunnelError(tunnel: ResolvedTunnel, why: string): NetbenchError {
  return new NetbenchError(`tunnel ${tunnel.name}: ${why}`);
}
