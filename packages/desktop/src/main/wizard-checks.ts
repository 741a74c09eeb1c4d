import type { PluginResolver } from '@netbench/core';
import type { DiagnosticCheck, PluginContext } from '@netbench/plugin-api';
import type { Capability, WizardChecks } from '../shared/bridge-types.js';

const quiet = { debug() {}, info() {}, warn() {} };

/**
 * What the wizard checks before Run, with no network call: each picked
 * cloud's offline doctor checks (`diagnose` with `online: false`:
 * credentials present, project or subscription set and well formed), and
 * what the local lab can shape on this machine (tc tbf for a rate, netem for
 * delay and loss) from the local plugin's own probe, so the wizard disables
 * what the kernel cannot do and says why.
 */
export async function wizardChecks(registry: PluginResolver, clouds: readonly string[]): Promise<WizardChecks> {
  const ctx: PluginContext = { runId: 'wizard', runDir: process.cwd(), signal: new AbortController().signal, log: quiet };
  const local = await diagnoseCloud(registry, 'local', ctx);
  const find = (prefix: string): Capability => {
    const check = local.find((c) => c.name.startsWith(prefix));
    return check ? { ok: check.ok, detail: check.detail } : { ok: false, detail: 'the local plugin did not say (not installed?)' };
  };
  const picked = [...new Set(clouds)].filter((c) => c !== 'local');
  return {
    shaping: { rate: find('tc tbf'), netem: find('tc netem') },
    clouds: await Promise.all(picked.map(async (cloud) => ({ cloud, checks: (await diagnoseCloud(registry, cloud, ctx)).map(plain) }))),
  };
}

async function diagnoseCloud(registry: PluginResolver, name: string, ctx: PluginContext): Promise<DiagnosticCheck[]> {
  try {
    const cloud = await registry.get('cloud', name);
    if (!cloud) return [{ name: `cloud ${name}`, ok: false, detail: 'not installed', fix: `netbench plugins add ${name}` }];
    return cloud.diagnose ? await cloud.diagnose(ctx, { online: false }) : [];
  } catch (error) {
    return [{ name: `cloud ${name}`, ok: false, detail: error instanceof Error ? error.message : String(error) }];
  }
}

function plain(check: DiagnosticCheck): WizardChecks['clouds'][number]['checks'][number] {
  return {
    name: check.name,
    ok: check.ok,
    detail: check.detail,
    ...(check.fix !== undefined ? { fix: check.fix } : {}),
    ...(check.severity !== undefined ? { severity: check.severity } : {}),
  };
}
