import { createPlan, loadSpec, type PluginResolver } from '@netbench/core';
import type { HostRequest, PluginContext } from '@netbench/plugin-api';
import type { PreflightFindings } from '../shared/bridge-types.js';
import { EDITOR_FILE } from './check-spec-text.js';

const quiet = { debug() {}, info() {}, warn() {} };
/** A preflight that asks a cloud's API (credentials, quotas) and gets no answer is reported, not waited for. */
const PREFLIGHT_TIMEOUT_MS = 20_000;

/**
 * Each cloud of the spec's plan runs its own `preflight` — what `netbench run`
 * does first, before anything is created: the local plugin probes the kernel
 * for the qdiscs and congestion controls the hosts ask for (netem missing,
 * an unknown congestion control), a cloud checks credentials and quotas.
 * Creates nothing. Each cloud's verdict is reported (its error is the finding);
 * a spec that does not plan is one finding without a cloud. `clouds` limits
 * it to those clouds (the review runs this machine's clouds by itself and a
 * remote cloud's, which calls its API, when asked).
 */
export async function preflightSpec(registry: PluginResolver, text: string, clouds?: readonly string[]): Promise<PreflightFindings> {
  let plan;
  try {
    const loaded = await loadSpec({ text, file: EDITOR_FILE }, registry);
    plan = await createPlan(loaded.spec, registry, loaded.blocks);
  } catch (error) {
    return { clouds: [{ cloud: '(spec)', ok: false, detail: message(error) }] };
  }
  const byCloud = new Map<string, HostRequest<unknown>[]>();
  for (const host of plan.fleet.filter((h) => !clouds || clouds.includes(h.cloud))) byCloud.set(host.cloud, [...(byCloud.get(host.cloud) ?? []), { ...host, config: host.config }]);
  const findings = await Promise.all(
    [...byCloud]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(async ([name, requests]) => {
        const cloud = await registry.get('cloud', name);
        if (!cloud) return { cloud: name, ok: false, detail: 'not installed' };
        if (!cloud.preflight) return { cloud: name, ok: true, detail: 'no preflight checks' };
        const abort = new AbortController();
        const ctx: PluginContext = { runId: 'wizard-preflight', runDir: process.cwd(), signal: abort.signal, log: quiet };
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            abort.abort();
            reject(new Error(`no answer in ${PREFLIGHT_TIMEOUT_MS / 1000} s`));
          }, PREFLIGHT_TIMEOUT_MS);
        });
        try {
          await Promise.race([cloud.preflight(requests, ctx), timeout]);
          return { cloud: name, ok: true, detail: `${requests.length} host(s) pass` };
        } catch (error) {
          // Plugins prefix their messages with their name (`local: host a …`); the finding names the cloud already.
          const text = message(error);
          return { cloud: name, ok: false, detail: text.startsWith(`${name}: `) ? text.slice(name.length + 2) : text };
        } finally {
          clearTimeout(timer);
        }
      }),
  );
  return { clouds: findings };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
