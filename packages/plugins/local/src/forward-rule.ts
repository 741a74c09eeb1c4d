import { runCommand } from '@netbench/plugin-api/cloud-kit';

/**
 * The FORWARD rule labs made before the hub namespace: with the bridge in the
 * machine's namespace and bridge netfilter on (dockerd), one ACCEPT rule for
 * bridge-to-same-bridge traffic, commented with the run id, let the hosts
 * reach each other. Labs no longer make it (their bridge lives in the run's
 * hub namespace); a ledger or a crashed run that has one still gets it
 * deleted, by teardown and by `cleanup`.
 */

/** `-A FORWARD -i nbXXXXXXbr -o nbXXXXXXbr -m comment --comment netbench:<runId> -j ACCEPT`. */
export const FORWARD_RULE_RE = /^-A FORWARD -i (nb[a-z0-9]{6}br) -o \1 -m comment --comment "?netbench:([^"\s]+)"? -j ACCEPT$/;

function ruleArgs(bridge: string, runId: string): string[] {
  return ['FORWARD', '-i', bridge, '-o', bridge, '-m', 'comment', '--comment', `netbench:${runId}`, '-j', 'ACCEPT'];
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
