import type { DiagnoseInput, DiagnosticCheck, PluginContext } from '@netbench/plugin-api';
import { diagnoseCredentials, resolveProject } from './credentials.js';
import type { GcpHostConfig } from './host-schema.js';
import { runProject } from './provision.js';
import { quotaReport } from './quotas.js';
import type { GcpRuntime } from './runtime.js';

/**
 * `netbench doctor`: where credentials and the project come from (no
 * network). With `--cloud gcp` (online): the credentials are exercised on a
 * read-only call, and with a spec, the quota headroom of each region its GCP
 * hosts use.
 */
export async function diagnoseGcp(ctx: PluginContext, input: DiagnoseInput<GcpHostConfig> | undefined, runtime: GcpRuntime, defaultProject?: string): Promise<DiagnosticCheck[]> {
  const checks = diagnoseCredentials();
  if (!input?.online) return checks;
  const requests = input.requests ?? [];
  let project: string | undefined;
  try {
    project = requests.length > 0 ? runProject(requests) : resolveProject(defaultProject);
  } catch (error) {
    checks.push({ name: 'project', ok: false, detail: error instanceof Error ? error.message : String(error) });
  }
  if (!project) return checks;
  try {
    // The cheapest read that proves the credentials work in this project.
    const [regions] = await runtime.clients().regions.list({ project, maxResults: 1 }, { autoPaginate: false });
    checks.push({ name: 'api access', ok: true, detail: `compute.regions.list in ${project} answered (${regions.length} region)` });
  } catch (error) {
    checks.push({
      name: 'api access',
      ok: false,
      detail: error instanceof Error ? error.message : String(error),
      fix: 'gcloud auth application-default login; enable the Compute Engine API; grant roles/compute.instanceAdmin.v1 and roles/compute.networkAdmin',
    });
    return checks;
  }
  if (requests.length > 0) checks.push(...(await quotaReport(requests, project, ctx, runtime)));
  return checks;
}
