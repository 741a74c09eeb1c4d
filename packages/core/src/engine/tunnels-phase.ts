import type { Host } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import type { AddressChoice } from '../spec/types.js';
import { type RunningTunnel, tunnelLabels } from '../tunnels/running-tunnel.js';
import { resolveTunnel, TUNNEL_IP_RE } from '../tunnels/tunnel-schema.js';
import { tunnelDown } from '../tunnels/tunnels-down.js';
import { tunnelHosts, tunnelUp } from '../tunnels/tunnels-up.js';
import type { RunState } from './run-state.js';

/**
 * Prepare: set every tunnel of the spec up, one after another (their daemons
 * and handshakes load the hosts; measuring has not started). A tunnel that
 * fails fails the prepare phase; whatever it made is in `state.tunnels` and
 * the ledger, so teardown undoes it.
 */
export async function tunnelsUp(state: RunState): Promise<void> {
  for (const [index, spec] of (state.plan.spec.tunnels ?? []).entries()) {
    if (state.signal.aborted) return;
    const tunnel = resolveTunnel(spec, index);
    const hosts = tunnelHosts(tunnel, state.hosts);
    if (typeof hosts === 'string') throw new NetbenchError(`tunnel ${tunnel.name}: ${hosts}`);
    const began = performance.now();
    let ok = false;
    try {
      await tunnelUp(tunnel, hosts, { runId: state.runId, ledger: state.ledger, signal: state.signal }, (r) => state.tunnels.push(r));
      ok = true;
    } finally {
      state.events.emit({ type: 'plugin-call', plugin: 'tunnels', hook: `up ${tunnel.name}`, durationMs: Math.round(performance.now() - began), ok });
    }
  }
}

/** Teardown: undo every tunnel, newest first, while the hosts' transports are still open. Resolves to the errors. */
export async function tunnelsDown(state: RunState): Promise<string[]> {
  const errors: string[] = [];
  for (const running of [...state.tunnels].reverse()) errors.push(...(await tunnelDown(running, state.hosts, state.ledger)));
  return errors;
}

/** The tunnel a trial goes through (`ip: tunnel:NAME`), if any. */
export function trialTunnel(state: RunState, ip: AddressChoice): RunningTunnel | undefined {
  const name = TUNNEL_IP_RE.exec(ip)?.[1];
  return name === undefined ? undefined : state.tunnels.find((t) => t.tunnel.name === name);
}

/** The address the client targets: the server's own, or the server's end of the tunnel. */
export function targetAddress(state: RunState, ip: AddressChoice, client: Host, server: Host): string | undefined {
  if (ip === 'internal') return server.internalIp;
  if (ip === 'external') return server.externalIp;
  const running = trialTunnel(state, ip);
  if (!running?.up) return undefined;
  const side = running.hosts.indexOf(server.id);
  if (side < 0 || !running.hosts.includes(client.id)) return undefined;
  return running.tunnel.addresses[side];
}

/** Tunnel labels for a trial's samples; none when the spec has no tunnels (plain specs keep their labels). */
export function trialTunnelLabels(state: RunState, ip: AddressChoice): Record<string, string | number> {
  if (!state.plan.spec.tunnels?.length) return {};
  return tunnelLabels(trialTunnel(state, ip));
}
