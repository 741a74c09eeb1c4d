import { createPlan, estimatePlanCost, loadSpec, type Plan, type PlanCost, type PluginResolver, placementFacts, planWarnings, SpecError, type SpecIssue } from '@netbench/core';
import { NetbenchError } from '@netbench/plugin-api';
import type { CostSummary, PlanSummary, SpecCheck } from '../shared/bridge-types.js';

/** What the editor's positions are relative to. */
export const EDITOR_FILE = 'spec.yaml';

/**
 * Validate the editor's text, plan it and estimate its cost — exactly what
 * `netbench plan` does (with its warnings), without creating anything. Spec problems come back
 * as issues with line:col; a failure to plan (a plugin that cannot load)
 * comes back as one issue without a place, so the editor never shows "valid"
 * for a spec that cannot run.
 */
export async function checkSpecText(registry: PluginResolver, text: string, maxCostUsd?: number): Promise<SpecCheck> {
  let loaded;
  try {
    loaded = await loadSpec({ text, file: EDITOR_FILE }, registry);
  } catch (error) {
    return { ok: false, issues: issuesOf(error), warnings: [] };
  }
  try {
    const plan = await createPlan(loaded.spec, registry, loaded.blocks);
    const cost = await estimatePlanCost(plan, registry);
    return {
      ok: true,
      plan: planSummary(plan),
      cost: costSummary(cost),
      overBudget: maxCostUsd !== undefined && cost.usd > maxCostUsd,
      // The same warnings as `netbench plan` (shaped direction not measured, unpinned ends on a small machine).
      warnings: [...loaded.warnings, ...planWarnings(plan, await placementFacts(plan, registry))],
    };
  } catch (error) {
    return { ok: false, issues: issuesOf(error), warnings: loaded.warnings };
  }
}

function issuesOf(error: unknown): readonly SpecIssue[] {
  if (error instanceof SpecError) return error.issues;
  if (error instanceof NetbenchError) return [{ file: EDITOR_FILE, line: 0, col: 0, path: '', message: error.message }];
  throw error;
}

export function planSummary(plan: Plan): PlanSummary {
  return {
    name: plan.spec.name,
    trials: plan.trials.map((t) => ({ id: t.id, tool: t.tool, test: t.test, client: t.client, server: t.server, params: t.params })),
    hosts: plan.fleet.map((h) => {
      const config = h.config as Record<string, unknown>;
      return {
        name: h.name,
        cloud: h.cloud,
        ...(typeof config['zone'] === 'string' ? { zone: config['zone'] } : {}),
        ...(typeof config['machineType'] === 'string' ? { machineType: config['machineType'] } : {}),
        // The account a host names itself (gcp `project`, azure `subscription`): the offline check's "not configured" does not apply to it.
        ...(typeof config['project'] === 'string' ? { account: config['project'] } : typeof config['subscription'] === 'string' ? { account: config['subscription'] } : {}),
      };
    }),
    estimatedSeconds: plan.estimatedSeconds,
  };
}

function costSummary(cost: PlanCost): CostSummary {
  return {
    usd: cost.usd,
    hostSeconds: cost.hostSeconds,
    clouds: cost.clouds.map((c) => ({
      cloud: c.cloud,
      hosts: c.hosts.reduce((n, g) => n + g.count, 0),
      ...(c.estimate ? { usd: c.estimate.usd, items: c.estimate.items, priceTableDate: c.estimate.priceTableDate } : {}),
      ...(c.note !== undefined ? { note: c.note } : {}),
    })),
  };
}
