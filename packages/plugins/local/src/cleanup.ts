import { readFile } from 'node:fs/promises';
import type { CleanupFilter, CleanupReport, LedgerResource } from '@netbench/plugin-api';
import { mustRun, runCommand, teardownEach } from '@netbench/plugin-api/cloud-kit';
import { findForwardRules } from './forward-rule.js';
import { ipIn } from './ip-batch.js';
import { BRIDGE_RE, HUB_RE, NETNS_RE, runIdFromAlias, runIdTime, runTag, VETH_RE } from './naming.js';
import { findProcesses } from './processes.js';
import { CONFIG_MARK } from './sshd.js';
import { teardownResource } from './teardown.js';

const SSHD_CONFIG_RE = /sshd.* -f (.+\/local\/[^/]+\/sshd_config)(?: |$)/;

/**
 * What the filter says of a resource of `runId` (or, for a link whose alias
 * is lost, of its tag): `take` it, `spare` it (its run is alive on this
 * machine: `excludeRunIds`), or `skip` it (another run, too young). Unknown
 * run ids are taken by an empty filter only.
 */
function verdict(filter: CleanupFilter, runId: string | undefined, tag?: string): 'take' | 'spare' | 'skip' {
  if (filter.runId !== undefined) {
    if (runId !== undefined ? runId !== filter.runId : tag !== runTag(filter.runId)) return 'skip';
  }
  const excluded = filter.excludeRunIds ?? [];
  if (runId !== undefined ? excluded.includes(runId) : tag !== undefined && excluded.some((id) => runTag(id) === tag)) return 'spare';
  if (filter.olderThanMs !== undefined) {
    const started = runId !== undefined ? runIdTime(runId) : undefined;
    if (!started || Date.now() - started.getTime() < filter.olderThanMs) return 'skip';
  }
  return 'take';
}

async function findNamespaces(): Promise<{ name: string; runId: string }[]> {
  const text = await mustRun(['ip', 'netns', 'list']);
  const found: { name: string; runId: string }[] = [];
  for (const line of text.split('\n')) {
    const name = line.trim().split(/\s+/)[0];
    const match = name ? NETNS_RE.exec(name) : null;
    if (name && match) found.push({ name, runId: match[1]! });
  }
  return found;
}

async function findSshdLeftovers(): Promise<LedgerResource[]> {
  const found: LedgerResource[] = [];
  for (const proc of await findProcesses((argv) => SSHD_CONFIG_RE.test(argv.join(' ')))) {
    const config = SSHD_CONFIG_RE.exec(proc.argv.join(' '))![1]!;
    let runId: string | undefined;
    let netns: string | undefined;
    try {
      const text = await readFile(config, 'utf8');
      runId = /^# netbench-run-id: (\S+)$/m.exec(text)?.[1];
      netns = /^# netbench-netns: (\S+)$/m.exec(text)?.[1];
      if (!text.startsWith(CONFIG_MARK)) continue; // an sshd_config that is not ours
    } catch {
      // Config gone with its run folder: the path is all we know.
    }
    found.push({ type: 'process', id: `sshd@${netns ?? proc.pid}`, data: { ...(runId ? { runId } : {}), pid: proc.pid, startTime: proc.startTime, config } });
  }
  return found;
}

/**
 * Find what runs left behind by naming alone (namespaces `nb-<runId>-*`, the
 * hub `nb-<runId>-@hub` among them, links `nb<tag>br`/`nb<tag>h<n>` whose alias
 * holds the run id, in this namespace or a hub, sshd started from a run
 * folder) and delete it unless `dryRun`: processes first, then links,
 * namespaces, FORWARD rules (labs from before the hub), bridges, as teardown would.
 */
export async function cleanupLeftovers(filter: CleanupFilter): Promise<CleanupReport> {
  const namespaces = await findNamespaces();
  const runIdByTag = new Map(namespaces.map((ns) => [runTag(ns.runId), ns.runId]));
  const spared: LedgerResource[] = [];
  // Keeps what the filter takes; what it spares (a live run's) is reported, never deleted.
  const sort = (resource: LedgerResource, runId: string | undefined, tag?: string): boolean => {
    const said = verdict(filter, runId, tag);
    if (said === 'spare') spared.push(resource);
    return said === 'take';
  };
  const processes = (await findSshdLeftovers()).filter((r) => sort(r, r.data?.runId as string | undefined));

  const veths: LedgerResource[] = [];
  const bridges: LedgerResource[] = [];
  // Links in this namespace (a lab from before the hub) and in each run's hub namespace (the bridge
  // and the veths' bridge ends: they go with the hub, and are listed so the report says what went).
  const hubs = namespaces.filter((ns) => HUB_RE.test(ns.name)).map((ns) => ns.name);
  for (const netns of [undefined, ...hubs]) {
    const listed = await runCommand(ipIn(netns, '-j', 'link', 'show'));
    if (listed.code !== 0) {
      if (netns === undefined) throw new Error(`ip -j link show: ${listed.stderr.trim()}`);
      continue; // a hub deleted meanwhile: nothing of it to list
    }
    for (const link of JSON.parse(listed.stdout) as { ifname: string; ifalias?: string }[]) {
      const bridge = BRIDGE_RE.exec(link.ifname);
      const veth = VETH_RE.exec(link.ifname);
      const tag = bridge?.[1] ?? veth?.[1];
      if (!tag) continue;
      // A link without its alias is known by its tag only; a live run's tag names that run in the report.
      const runId = runIdFromAlias(link.ifalias) ?? runIdByTag.get(tag) ?? filter.excludeRunIds?.find((id) => runTag(id) === tag);
      const where = netns === undefined ? {} : bridge ? { netns } : { hub: netns };
      const resource: LedgerResource = { type: bridge ? 'bridge' : 'veth', id: link.ifname, data: { ...(runId ? { runId } : {}), ...where } };
      if (sort(resource, runId, tag)) (bridge ? bridges : veths).push(resource);
    }
  }
  const netns = namespaces.map((ns): LedgerResource => ({ type: 'netns', id: ns.name, data: { runId: ns.runId } })).filter((r) => sort(r, r.data!.runId as string));

  const rules = (await findForwardRules())
    .map((rule): LedgerResource => ({ type: 'firewall', id: `forward:${rule.bridge}`, data: { runId: rule.runId, bridge: rule.bridge } }))
    .filter((r) => sort(r, r.data!.runId as string | undefined));

  const found = [...processes, ...veths, ...netns, ...rules, ...bridges];
  return { ...(await teardownEach(found, teardownResource, filter)), spared };
}
