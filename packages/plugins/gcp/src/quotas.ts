import type { DiagnosticCheck, HostRequest, PluginContext } from '@netbench/plugin-api';
import { QuotaError } from '@netbench/plugin-api';
import type { GcpHostConfig } from './host-schema.js';
import { regionOf } from './naming.js';
import type { GcpRuntime } from './runtime.js';

/** vCPUs of a machine type: `n2-standard-16` → 16, `n2-custom-4-16384` → 4; shared-core types count 2. */
export function vcpusOf(machineType: string): number {
  const custom = /-custom-(\d+)-/.exec(machineType);
  return Number(custom?.[1] ?? /-(\d+)$/.exec(machineType)?.[1] ?? 2);
}

/** The regional quota metric a machine family's vCPUs count against when it has its own (`N2_CPUS`), else `CPUS`. */
const familyMetric = (machineType: string) => `${machineType.split('-')[0]!.toUpperCase()}_CPUS`;

interface Need {
  cpus: Map<string, number>;
  addresses: number;
}

/** Per region and metric: what the run needs against what is free; `ok: false` lines are shortfalls. */
export async function quotaReport(requests: readonly HostRequest<GcpHostConfig>[], project: string, ctx: PluginContext, runtime: GcpRuntime): Promise<DiagnosticCheck[]> {
  const needs = new Map<string, Need>();
  for (const r of requests) {
    const need = needs.get(regionOf(r.config.zone)) ?? { cpus: new Map(), addresses: 0 };
    const metric = familyMetric(r.config.machineType);
    need.cpus.set(metric, (need.cpus.get(metric) ?? 0) + vcpusOf(r.config.machineType));
    if (r.config.externalIp) need.addresses += 1;
    needs.set(regionOf(r.config.zone), need);
  }
  const lines: DiagnosticCheck[] = [];
  for (const [region, need] of needs) {
    let quotas: { metric?: string | null; limit?: number | null; usage?: number | null }[];
    try {
      const [info] = await runtime.clients().regions.get({ project, region });
      quotas = info.quotas ?? [];
    } catch (error) {
      const detail = `could not read the quotas of ${region}: ${error instanceof Error ? error.message : String(error)}`;
      ctx.log.warn(`${detail}; going on without a quota check`);
      lines.push({ name: `quota ${region}`, ok: false, severity: 'warning', detail, fix: 'grant compute.regions.get (roles/compute.viewer)' });
      continue;
    }
    const free = (metric: string) => {
      const q = quotas.find((x) => x.metric === metric);
      return q ? { free: (q.limit ?? 0) - (q.usage ?? 0), limit: q.limit ?? 0 } : undefined;
    };
    const byMetric = new Map<string, number>();
    for (const [metric, cpus] of need.cpus) {
      // A family without a quota of its own counts against CPUS.
      const counted = free(metric) ? metric : 'CPUS';
      byMetric.set(counted, (byMetric.get(counted) ?? 0) + cpus);
    }
    if (need.addresses > 0) byMetric.set('IN_USE_ADDRESSES', need.addresses);
    for (const [metric, wanted] of byMetric) {
      const room = free(metric);
      if (!room) continue;
      const detail = `${metric} in ${region}: the run needs ${wanted}, ${room.free} of ${room.limit} free`;
      lines.push(
        room.free >= wanted
          ? { name: `quota ${metric} ${region}`, ok: true, detail }
          : { name: `quota ${metric} ${region}`, ok: false, detail, fix: 'ask for more at https://console.cloud.google.com/iam-admin/quotas, or use other regions' },
      );
    }
  }
  return lines;
}

/**
 * Before anything is created: does each region's quota leave room for the
 * run's vCPUs (per family metric, else CPUS) and external addresses? One
 * `regions.get` per region. A shortfall is a `QuotaError` naming the metric;
 * a region that cannot be read is only a warning.
 */
export async function checkQuotas(requests: readonly HostRequest<GcpHostConfig>[], project: string, ctx: PluginContext, runtime: GcpRuntime): Promise<void> {
  const shortfalls = (await quotaReport(requests, project, ctx, runtime)).filter((l) => !l.ok && l.severity !== 'warning').map((l) => l.detail);
  if (shortfalls.length > 0)
    throw new QuotaError(
      `gcp quota too low for this run (project ${project}): ${shortfalls.join('; ')} — ask for more at https://console.cloud.google.com/iam-admin/quotas or use other regions`,
    );
}
