import type { LedgerResource } from '@netbench/plugin-api';

/** Ledger types, in creation order. */
export const TYPES = {
  group: 'azure-resource-group',
  publicIp: 'azure-public-ip',
  vnet: 'azure-vnet',
  asg: 'azure-asg',
  ppg: 'azure-ppg',
  peering: 'azure-vnet-peering',
  nsg: 'azure-nsg',
  nic: 'azure-nic',
  vm: 'azure-vm',
  /** Added by `admitPeers`; deleted on its own (it may sit in an NSG the run does not own). */
  nsgRule: 'azure-nsg-rule',
} as const;

export const groupId = (subscriptionId: string, group: string) => `/subscriptions/${subscriptionId}/resourceGroups/${group}`;

/** ARM id of a resource in a group, e.g. `Microsoft.Network/virtualNetworks/NAME`. */
export const armId = (subscriptionId: string, group: string, type: string, name: string) => `${groupId(subscriptionId, group)}/providers/${type}/${name}`;

const GROUP_RE = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)(?:\/|$)/i;

export function parseGroup(id: string): { subscriptionId: string; group: string } {
  const m = GROUP_RE.exec(id);
  if (!m) throw new Error(`not an Azure resource id: ${id}`);
  return { subscriptionId: m[1]!, group: m[2]! };
}

/**
 * Every resource the run makes lives in its own resource group, which is
 * deleted last (it was created first): `inRunGroup` says a resource goes with
 * it and needs no delete of its own.
 */
export const inGroup = (type: string, id: string, host?: string): LedgerResource => ({
  type,
  id,
  ...(host !== undefined ? { host } : {}),
  data: { inRunGroup: true },
});

const RULE_RE = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Network\/networkSecurityGroups\/([^/]+)\/securityRules\/([^/]+)$/i;

/** The parts of a security rule's ARM id. */
export function parseRuleId(id: string): { subscriptionId: string; group: string; nsg: string; rule: string } {
  const m = RULE_RE.exec(id);
  if (!m) throw new Error(`not an Azure security rule id: ${id}`);
  return { subscriptionId: m[1]!, group: m[2]!, nsg: m[3]!, rule: m[4]! };
}
