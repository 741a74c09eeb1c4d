import type { CostEstimate, HostRequest } from '@netbench/plugin-api';
import type { Plan } from '../plan/types.js';
import type { PluginResolver } from '../registry/types.js';
import { planUsage, type UsageAssumptions } from './plan-usage.js';

/** The hosts a cloud will create, grouped by machine type and zone (the conventional host fields). */
export interface HostGroup {
  readonly machineType?: string;
  readonly zone?: string;
  readonly count: number;
}

export interface CloudCost {
  readonly cloud: string;
  readonly hosts: readonly HostGroup[];
  /** Absent when the cloud has no cost model (local, static) or failed to estimate (`note` says). */
  readonly estimate?: CostEstimate;
  readonly note?: string;
}

export interface PlanCost {
  /** Sum of every cloud's estimate, USD. */
  readonly usd: number;
  readonly clouds: readonly CloudCost[];
  /** Seconds each host is assumed to exist. */
  readonly hostSeconds: number;
}

/** Clouds whose machines cost nothing extra (they already exist or are this machine). */
const FREE_CLOUDS = new Set(['local', 'static', 'docker']);

/**
 * Ask every cloud of the plan for its estimate (`CloudPlugin.estimateCost`,
 * pure: no API calls) and sum them. A cloud that cannot estimate is listed
 * with a note instead of failing the plan.
 */
export async function estimatePlanCost(plan: Plan, resolver: PluginResolver, assumptions?: UsageAssumptions): Promise<PlanCost> {
  const usage = planUsage(plan, assumptions);
  const byCloud = new Map<string, HostRequest<unknown>[]>();
  for (const host of plan.fleet) byCloud.set(host.cloud, [...(byCloud.get(host.cloud) ?? []), { ...host, config: host.config }]);

  const clouds: CloudCost[] = [];
  for (const [name, requests] of byCloud) {
    const hosts = hostGroups(requests);
    let cloud;
    try {
      cloud = await resolver.get('cloud', name);
    } catch (error) {
      clouds.push({ cloud: name, hosts, note: `could not load: ${message(error)}` });
      continue;
    }
    if (!cloud?.estimateCost) {
      clouds.push({ cloud: name, hosts, note: !cloud ? 'not installed: no estimate' : FREE_CLOUDS.has(name) ? 'no charge' : 'this cloud plugin gives no estimate' });
      continue;
    }
    try {
      clouds.push({ cloud: name, hosts, estimate: cloud.estimateCost(requests, usage) });
    } catch (error) {
      clouds.push({ cloud: name, hosts, note: `estimate failed: ${message(error)}` });
    }
  }
  const usd = clouds.reduce((sum, c) => sum + (c.estimate?.usd ?? 0), 0);
  const first = Object.values(usage.hostSeconds)[0] ?? 0;
  return { usd: Math.round(usd * 100) / 100, clouds, hostSeconds: first };
}

function hostGroups(requests: readonly HostRequest<unknown>[]): HostGroup[] {
  const groups = new Map<string, { machineType?: string; zone?: string; count: number }>();
  for (const request of requests) {
    const config = request.config as Record<string, unknown>;
    const machineType = typeof config.machineType === 'string' ? config.machineType : undefined;
    const zone = typeof config.zone === 'string' ? config.zone : undefined;
    const key = `${machineType ?? ''}\u0000${zone ?? ''}`;
    const group = groups.get(key) ?? { ...(machineType ? { machineType } : {}), ...(zone ? { zone } : {}), count: 0 };
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.values()];
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
