/**
 * A network namespace other than the machine's own may only default to a
 * congestion control in the root namespace's
 * `net.ipv4.tcp_allowed_congestion_control` (the kernel answers EPERM
 * otherwise, even to root). The lab adds what its hosts ask for there, each
 * addition recorded in the ledger first, and takes it out again in teardown.
 */
import type { LedgerResource, ProvisionContext } from '@netbench/plugin-api';
import { CONGESTION_CONTROL_RE, mustRun, runCommand } from '@netbench/plugin-api/cloud-kit';

const ALLOWED = '/proc/sys/net/ipv4/tcp_allowed_congestion_control';
export const ALLOWED_RESOURCE = 'sysctl';
/** `tcp_allowed_congestion_control:cubic`: the ledger id of one algorithm this run allowed. */
export const ALLOWED_ID_RE = /^tcp_allowed_congestion_control:([a-z][a-z0-9_]{0,15})$/;

async function allowedList(): Promise<string[]> {
  const result = await runCommand(['cat', ALLOWED]);
  if (result.code !== 0) throw new Error(`cannot read ${ALLOWED}: ${result.stderr.trim()}`);
  return result.stdout.trim().split(/\s+/).filter(Boolean);
}

// The kernel keeps the list as flags on its loaded algorithms: writing a list replaces it whole.
const writeList = (list: readonly string[]) => mustRun(['sysctl', '-q', '-w', `net.ipv4.tcp_allowed_congestion_control=${list.join(' ')}`]);

/** Allow every algorithm of `algorithms` not yet allowed; each addition is a ledger resource. */
export async function allowCongestionControls(algorithms: readonly string[], ctx: ProvisionContext): Promise<void> {
  for (const algorithm of [...new Set(algorithms)]) {
    if (!CONGESTION_CONTROL_RE.test(algorithm)) throw new Error(`local: ${JSON.stringify(algorithm)} is not a congestion control name`);
    if ((await allowedList()).includes(algorithm)) continue;
    const resource: LedgerResource = { type: ALLOWED_RESOURCE, id: `tcp_allowed_congestion_control:${algorithm}`, data: { runId: ctx.runId, algorithm } };
    await ctx.ledger.track(resource, async () => {
      const list = await allowedList();
      if (!list.includes(algorithm)) await writeList([...list, algorithm]);
    });
    ctx.log.info(`local: added ${algorithm} to net.ipv4.tcp_allowed_congestion_control (a namespace may only default to an allowed algorithm); teardown removes it`);
  }
}

/** Take `algorithm` out of the allowed list again; already out = success. Namespaces that chose it keep it. */
export async function disallowCongestionControl(algorithm: string): Promise<void> {
  const list = await allowedList();
  if (list.includes(algorithm)) await writeList(list.filter((a) => a !== algorithm));
}
