import { readFile } from 'node:fs/promises';
import type { LedgerResource } from '@netbench/plugin-api';
import { BRIDGE_RE } from './naming.js';
import { mustRun, runCommand } from './run-command.js';

/** Comment that marks a lab bridge's FORWARD rule as netbench's (and names the bridge). */
const COMMENT_PREFIX = 'netbench-lab:';
const RULE_RE = /^-A FORWARD .*--comment "?netbench-lab:(nb[a-z0-9]{6}br)"?/;

/**
 * Whether bridged frames go through iptables' FORWARD chain: `br_netfilter`
 * loaded with `bridge-nf-call-iptables = 1`, as Docker leaves it (together
 * with a FORWARD policy of DROP). The per-bridge switch cannot turn the
 * global one off, so the lab then needs a FORWARD rule of its own.
 */
export async function bridgedFramesFiltered(): Promise<boolean> {
  const value = await readFile('/proc/sys/net/bridge/bridge-nf-call-iptables', 'utf8').catch(() => '0');
  return value.trim() === '1';
}

const ruleSpec = (bridge: string) => ['FORWARD', '-i', bridge, '-o', bridge, '-m', 'comment', '--comment', `${COMMENT_PREFIX}${bridge}`, '-j', 'ACCEPT'];

/** Accept traffic between the lab's namespaces on `bridge`, first in FORWARD (before Docker's chains). */
export async function addForwardRule(bridge: string): Promise<void> {
  if (!BRIDGE_RE.test(bridge)) throw new Error(`local: refusing a FORWARD rule for ${JSON.stringify(bridge)}: not a netbench bridge`);
  await mustRun(['iptables', '-w', '5', '-I', ...ruleSpec(bridge).slice(0, 1), '1', ...ruleSpec(bridge).slice(1)]);
}

/** Delete the bridge's rule(s). Gone already = success. */
export async function deleteForwardRule(bridge: string): Promise<void> {
  if (!BRIDGE_RE.test(bridge)) throw new Error(`local: refusing to delete a FORWARD rule for ${JSON.stringify(bridge)}: not a netbench bridge`);
  // A rule inserted twice (a retried provision) is deleted twice; stop when none is left.
  for (let i = 0; i < 10; i += 1) {
    const result = await runCommand(['iptables', '-w', '5', '-D', ...ruleSpec(bridge)]);
    if (result.code !== 0) return;
  }
}

/** Rules a crashed run left behind, as ledger resources. */
export async function findForwardRules(): Promise<LedgerResource[]> {
  const listed = await runCommand(['iptables', '-w', '5', '-S', 'FORWARD']);
  if (listed.code !== 0) return [];
  return listed.stdout.split('\n').flatMap((line) => {
    const bridge = RULE_RE.exec(line)?.[1];
    return bridge ? [{ type: 'forward-rule', id: bridge }] : [];
  });
}
