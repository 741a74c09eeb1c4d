/**
 * A network namespace other than the machine's own may only default to a
 * congestion control in the root namespace's
 * `net.ipv4.tcp_allowed_congestion_control` (the kernel answers EPERM
 * otherwise, even to root). Clouds that make namespaces on this machine (the
 * local lab's namespaces, Docker containers on a local dockerd) add what their
 * hosts ask for there, each addition recorded in the ledger first, and take it
 * out again in teardown.
 */
import type { LedgerResource } from '../ledger/types.js';
import type { ProvisionContext } from '../plugin/cloud.js';
import { CONGESTION_CONTROL_RE } from './congestion-control.js';
import { mustRun, runCommand } from './run-command.js';

const ALLOWED = '/proc/sys/net/ipv4/tcp_allowed_congestion_control';
/** The ledger `type` of one algorithm a run added to the allowed list. */
export const ALLOWED_CONGESTION_CONTROL_RESOURCE = 'sysctl';
/** `tcp_allowed_congestion_control:cubic`: the ledger id of one algorithm a run allowed. */
export const ALLOWED_CONGESTION_CONTROL_ID_RE = /^tcp_allowed_congestion_control:([a-z][a-z0-9_]{0,15})$/;

/** The root namespace's allowed list (this process's namespace: the machine's own). */
export async function allowedCongestionControls(): Promise<string[]> {
  const result = await runCommand(['cat', ALLOWED]);
  if (result.code !== 0) throw new Error(`cannot read ${ALLOWED}: ${result.stderr.trim()}`);
  return result.stdout.trim().split(/\s+/).filter(Boolean);
}

// The kernel keeps the list as flags on its loaded algorithms: writing a list replaces it whole.
const writeList = (list: readonly string[]) => mustRun(['sysctl', '-q', '-w', `net.ipv4.tcp_allowed_congestion_control=${list.join(' ')}`]);

/**
 * Allow every algorithm of `algorithms` not yet allowed; each addition is a
 * ledger resource of the calling plugin (`plugin` names it in the log), whose
 * teardown hands it to `teardownAllowedCongestionControl`.
 */
export async function allowCongestionControls(plugin: string, algorithms: readonly string[], ctx: Pick<ProvisionContext, 'runId' | 'ledger' | 'log'>): Promise<void> {
  for (const algorithm of [...new Set(algorithms)]) {
    if (!CONGESTION_CONTROL_RE.test(algorithm)) throw new Error(`${plugin}: ${JSON.stringify(algorithm)} is not a congestion control name`);
    if ((await allowedCongestionControls()).includes(algorithm)) continue;
    const resource: LedgerResource = { type: ALLOWED_CONGESTION_CONTROL_RESOURCE, id: `tcp_allowed_congestion_control:${algorithm}`, data: { runId: ctx.runId, algorithm } };
    await ctx.ledger.track(resource, async () => {
      const list = await allowedCongestionControls();
      if (!list.includes(algorithm)) await writeList([...list, algorithm]);
    });
    ctx.log.info(`${plugin}: added ${algorithm} to net.ipv4.tcp_allowed_congestion_control (a network namespace may only default to an allowed algorithm); teardown removes it`);
  }
}

/** Take `algorithm` out of the allowed list again; already out = success. Namespaces that chose it keep it. */
export async function disallowCongestionControl(algorithm: string): Promise<void> {
  const list = await allowedCongestionControls();
  if (list.includes(algorithm)) await writeList(list.filter((a) => a !== algorithm));
}

/**
 * Teardown of a ledger resource written by `allowCongestionControls`: undoes
 * it and returns true; false for any other resource type. A damaged id is refused.
 */
export async function teardownAllowedCongestionControl(plugin: string, resource: LedgerResource): Promise<boolean> {
  if (resource.type !== ALLOWED_CONGESTION_CONTROL_RESOURCE) return false;
  const algorithm = ALLOWED_CONGESTION_CONTROL_ID_RE.exec(resource.id)?.[1];
  if (!algorithm) throw new Error(`${plugin}: refusing to tear down ${resource.type} ${JSON.stringify(resource.id)}: not a tcp_allowed_congestion_control entry`);
  await disallowCongestionControl(algorithm);
  return true;
}
