import type { DiagnosticCheck, HostRequest, PluginContext } from '@netbench/plugin-api';
import { QuotaError } from '@netbench/plugin-api';
import type { ArmClients } from './clients.js';
import type { AzureHostConfig } from './host-schema.js';
import { splitZone } from './naming.js';

/** vCPUs of a size: `Standard_D4s_v5` → 4, `Standard_F16s_v2` → 16. */
export const vcpusOf = (size: string) => Number(/^Standard_[A-Za-z]+?(\d+)/.exec(size)?.[1] ?? 2);

/** The compute usage name of a size's family: `Standard_D4as_v5` → `standardDASv5Family`, `Standard_B2s` → `standardBSFamily`. */
export function familyOf(size: string): string | undefined {
  const m = /^Standard_([A-Za-z]+?)\d+([a-z]*)(?:_(v\d+))?$/.exec(size);
  return m ? `standard${m[1]!.toUpperCase()}${m[2]!.toUpperCase()}${m[3] ?? ''}Family` : undefined;
}

/** Per location: the run's vCPUs against the free `cores` and size-family quota; `ok: false` lines are shortfalls. */
export async function quotaReport(requests: readonly HostRequest<AzureHostConfig>[], clients: ArmClients, ctx: PluginContext): Promise<DiagnosticCheck[]> {
  const needs = new Map<string, Map<string, number>>();
  for (const r of requests) {
    const { location } = splitZone(r.config.zone);
    const need = needs.get(location) ?? new Map<string, number>();
    const cpus = vcpusOf(r.config.machineType);
    need.set('cores', (need.get('cores') ?? 0) + cpus);
    const family = familyOf(r.config.machineType);
    if (family) need.set(family, (need.get(family) ?? 0) + cpus);
    needs.set(location, need);
  }
  const lines: DiagnosticCheck[] = [];
  for (const [location, need] of needs) {
    const usage = new Map<string, { current: number; limit: number }>();
    try {
      for await (const u of clients.compute.usage.list(location, { abortSignal: ctx.signal })) {
        if (u.name?.value) usage.set(u.name.value, { current: u.currentValue, limit: u.limit });
      }
    } catch (error) {
      const detail = `could not read the compute quotas of ${location}: ${error instanceof Error ? error.message : String(error)}`;
      ctx.log.warn(`${detail}; going on without a quota check`);
      lines.push({ name: `quota ${location}`, ok: false, severity: 'warning', detail });
      continue;
    }
    for (const [name, wanted] of need) {
      const u = usage.get(name);
      if (!u) continue;
      const detail = `${name} in ${location}: the run needs ${wanted} vCPUs, ${u.limit - u.current} of ${u.limit} free`;
      lines.push(
        u.limit - u.current >= wanted
          ? { name: `quota ${name} ${location}`, ok: true, detail }
          : { name: `quota ${name} ${location}`, ok: false, detail, fix: 'request more under Subscriptions › Usage + quotas, or use other locations' },
      );
    }
  }
  return lines;
}

/**
 * Before anything is created: do the location's `cores` (total regional
 * vCPUs) and the size family's quota leave room for the run? One usage
 * listing per location; a shortfall is a `QuotaError`, an unreadable listing
 * only a warning.
 */
export async function checkQuotas(requests: readonly HostRequest<AzureHostConfig>[], clients: ArmClients, ctx: PluginContext): Promise<void> {
  const shortfalls = (await quotaReport(requests, clients, ctx)).filter((l) => !l.ok && l.severity !== 'warning').map((l) => l.detail);
  if (shortfalls.length > 0)
    throw new QuotaError(
      `azure quota too low for this run (subscription ${clients.subscriptionId}): ${shortfalls.join('; ')} — request more under Subscriptions › Usage + quotas, or use other locations`,
    );
}
