// node:crypto is loaded on first use: importing it cost every run ~9 ms of start-up, and a local run needs none of it.
const crypto = () => process.getBuiltinModule('node:crypto');

import type { ResolvedTunnel } from './tunnel-schema.js';

/** One end of a tunnel: where its files live on the host and what it is called. */
export interface Endpoint {
  /** 0: `between[0]` (initiator, `.1`); 1: `between[1]` (`.2`). */
  readonly side: 0 | 1;
  /** Fleet id of the host. */
  readonly host: string;
  /** Private directory (0700) on the host holding this end's keys, configs, pid files and log. */
  readonly dir: string;
  /** The tunnel interface (for ipsec/userspace: charon's TUN device is found after start). */
  readonly iface: string;
  /** Outer addresses: this host's and its peer's (the plain path the tunnel runs over). */
  readonly outer: string;
  readonly peerOuter: string;
  /** Inner addresses. */
  readonly inner: string;
  readonly peerInner: string;
}

/**
 * Keys and configs live in RAM (`/dev/shm`), never on disk, in a directory
 * private to the run, removed at teardown (and by `netbench cleanup`). Not
 * under `/run`: charon gets a private `/run` (its pid file is fixed there).
 */
export const tunnelRoot = (runId: string) => `/dev/shm/netbench-${runId}`;

/** Interface names: `nb` + type letter + 8 hex of run and tunnel + side letter (≤ 15 characters). */
export function endpointIface(runId: string, tunnel: ResolvedTunnel, side: 0 | 1): string {
  const tag = crypto().createHash('sha256').update(`${runId}\u0000${tunnel.name}`).digest('hex').slice(0, 8);
  return `nb${tunnel.type[0]}${tag}${side === 0 ? 'a' : 'b'}`;
}

export function makeEndpoint(runId: string, tunnel: ResolvedTunnel, side: 0 | 1, host: string, outer: string, peerOuter: string): Endpoint {
  return {
    side,
    host,
    outer,
    peerOuter,
    dir: `${tunnelRoot(runId)}/${tunnel.name}-${side === 0 ? 'a' : 'b'}`,
    iface: endpointIface(runId, tunnel, side),
    inner: tunnel.addresses[side],
    peerInner: tunnel.addresses[side === 0 ? 1 : 0],
  };
}
