import type { LedgerResource } from '@netbench/plugin-api';

/** Ledger types of what this plugin creates, in creation order. */
export const TYPES = {
  network: 'gce-network',
  subnetwork: 'gce-subnetwork',
  firewall: 'gce-firewall',
  policy: 'gce-resource-policy',
  instance: 'gce-instance',
  address: 'gce-address',
  vpnGateway: 'gce-target-vpn-gateway',
  forwardingRule: 'gce-forwarding-rule',
  vpnTunnel: 'gce-vpn-tunnel',
  route: 'gce-route',
  router: 'gce-router',
  haVpnGateway: 'gce-vpn-gateway',
  /** A Cloud Router's BGP interfaces and peers (its id is the router's): removed before the tunnels they link. */
  routerBgp: 'gce-router-bgp',
} as const;

/**
 * Ledger ids are the API's relative resource names
 * (`projects/P/zones/Z/instances/N`), so teardown needs nothing else.
 */
export const ids = {
  network: (project: string, name: string) => `projects/${project}/global/networks/${name}`,
  firewall: (project: string, name: string) => `projects/${project}/global/firewalls/${name}`,
  subnetwork: (project: string, region: string, name: string) => `projects/${project}/regions/${region}/subnetworks/${name}`,
  policy: (project: string, region: string, name: string) => `projects/${project}/regions/${region}/resourcePolicies/${name}`,
  instance: (project: string, zone: string, name: string) => `projects/${project}/zones/${zone}/instances/${name}`,
  address: (project: string, region: string, name: string) => `projects/${project}/regions/${region}/addresses/${name}`,
  vpnGateway: (project: string, region: string, name: string) => `projects/${project}/regions/${region}/targetVpnGateways/${name}`,
  forwardingRule: (project: string, region: string, name: string) => `projects/${project}/regions/${region}/forwardingRules/${name}`,
  vpnTunnel: (project: string, region: string, name: string) => `projects/${project}/regions/${region}/vpnTunnels/${name}`,
  route: (project: string, name: string) => `projects/${project}/global/routes/${name}`,
  router: (project: string, region: string, name: string) => `projects/${project}/regions/${region}/routers/${name}`,
  haVpnGateway: (project: string, region: string, name: string) => `projects/${project}/regions/${region}/vpnGateways/${name}`,
};

export interface ParsedId {
  readonly project: string;
  readonly zone?: string;
  readonly region?: string;
  readonly collection: string;
  readonly name: string;
}

const ID_RE = /^projects\/([^/]+)\/(?:global|zones\/([^/]+)|regions\/([^/]+))\/([a-zA-Z]+)\/([^/]+)$/;

export function parseId(id: string): ParsedId {
  const m = ID_RE.exec(id);
  if (!m) throw new Error(`not a Compute Engine resource name: ${id}`);
  return { project: m[1]!, ...(m[2] ? { zone: m[2] } : {}), ...(m[3] ? { region: m[3] } : {}), collection: m[4]!, name: m[5]! };
}

export const resource = (type: string, id: string, host?: string, data?: Record<string, unknown>): LedgerResource => ({
  type,
  id,
  ...(host !== undefined ? { host } : {}),
  ...(data ? { data } : {}),
});
