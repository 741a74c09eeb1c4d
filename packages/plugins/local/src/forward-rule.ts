import { existsSync, readFileSync } from 'node:fs';
import { runCommand } from '@netbench/plugin-api/cloud-kit';

/**
 * Where bridge netfilter is on (dockerd loads br_netfilter and sets
 * net.bridge.bridge-nf-call-iptables=1, then sets iptables' FORWARD policy to
 * DROP), frames crossing the lab's bridge go through iptables FORWARD: the
 * per-bridge `nf_call_iptables 0` cannot turn the global switch off. One
 * ACCEPT rule for bridge-to-same-bridge traffic, commented with the run id,
 * lets the lab's hosts reach each other and nothing else.
 */

const BRIDGE_NF = '/proc/sys/net/bridge/bridge-nf-call-iptables';
/** `-A FORWARD -i nbXXXXXXbr -o nbXXXXXXbr -m comment --comment netbench:<runId> -j ACCEPT`. */
export const FORWARD_RULE_RE = /^-A FORWARD -i (nb[a-z0-9]{6}br) -o \1 -m comment --comment "?netbench:([^"\s]+)"? -j ACCEPT$/;

function ruleArgs(bridge: string, runId: string): string[] {
  return ['FORWARD', '-i', bridge, '-o', bridge, '-m', 'comment', '--comment', `netbench:${runId}`, '-j', 'ACCEPT'];
}

/** Whether bridged IPv4 traffic is filtered by iptables on this machine (br_netfilter loaded and on). */
export function bridgeNetfilterOn(): boolean {
  if (!existsSync(BRIDGE_NF)) return false;
  try {
    return readFileSync(BRIDGE_NF, 'utf8').trim() === '1';
  } catch {
    return false;
  }
}


export async function iptablesAvailable(): Promise<boolean> {
  return (await runCommand(['iptables', '-w', '-S', 'FORWARD'])).code === 0;
}

export async function addForwardRule(bridge: string, runId: string): Promise<void> {
  const result = await runCommand(['iptables', '-w', '-I', ...ruleArgs(bridge, runId)]);
  if (result.code !== 0) throw new Error(`iptables -I FORWARD for bridge ${bridge}: ${result.stderr.trim()}`);
}

/** Delete the rule (every copy); one that is not there, or no iptables at all, is success. */
export async function deleteForwardRule(bridge: string, runId: string): Promise<void> {
  for (let i = 0; i < 10; i += 1) {
    const check = await runCommand(['iptables', '-w', '-C', ...ruleArgs(bridge, runId)]);
    if (check.code !== 0) return;
    const result = await runCommand(['iptables', '-w', '-D', ...ruleArgs(bridge, runId)]);
    if (result.code !== 0) throw new Error(`iptables -D FORWARD for bridge ${bridge}: ${result.stderr.trim()}`);
  }
}

/** Rules that runs left behind: bridge and run id from each commented rule. */
export async function findForwardRules(): Promise<{ bridge: string; runId: string }[]> {
  const result = await runCommand(['iptables', '-w', '-S', 'FORWARD']);
  if (result.code !== 0) return [];
  return result.stdout.split('\n').flatMap((line) => {
    const match = FORWARD_RULE_RE.exec(line.trim());
    return match ? [{ bridge: match[1]!, runId: match[2]! }] : [];
  });
}
