import type { DiagnoseInput, DiagnosticCheck, PluginContext } from '@netbench/plugin-api';
import { diagnoseCredentials, resolveSubscription } from './credentials.js';
import type { AzureHostConfig } from './host-schema.js';
import { runSubscription } from './provision.js';
import { quotaReport } from './quotas.js';
import type { AzureRuntime } from './runtime.js';

/** Who a Resource Manager token was issued to, from its (unverified) JWT claims. */
export function tokenIdentity(token: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const who = claims['upn'] ?? claims['unique_name'] ?? claims['appid'] ?? claims['oid'];
    return typeof who === 'string' ? `${who}${typeof claims['tid'] === 'string' ? ` (tenant ${claims['tid']})` : ''}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `netbench doctor`: where credentials and the subscription come from (no
 * network). With `--cloud azure` (online): a token is obtained (naming the
 * identity), one read-only Resource Manager call is made, and with a spec the
 * vCPU quota headroom of each location its Azure hosts use is reported.
 */
export async function diagnoseAzure(
  ctx: PluginContext,
  input: DiagnoseInput<AzureHostConfig> | undefined,
  runtime: AzureRuntime,
  defaultSubscription?: string,
): Promise<DiagnosticCheck[]> {
  const checks = diagnoseCredentials();
  if (!input?.online) return checks;
  const requests = input.requests ?? [];
  let subscription: string | undefined;
  try {
    subscription = requests.length > 0 ? runSubscription(requests) : resolveSubscription(defaultSubscription);
  } catch (error) {
    checks.push({ name: 'subscription', ok: false, detail: error instanceof Error ? error.message : String(error) });
  }
  if (!subscription) return checks;
  const clients = runtime.clients(subscription);
  try {
    const token = await runtime.credential().getToken('https://management.azure.com/.default', { abortSignal: ctx.signal });
    checks.push({ name: 'identity', ok: true, detail: (token && tokenIdentity(token.token)) ?? 'a token was issued (identity not readable from it)' });
    let groups = 0;
    for await (const _ of clients.resources.resourceGroups.list({ top: 1, abortSignal: ctx.signal })) {
      groups += 1;
      break;
    }
    checks.push({ name: 'api access', ok: true, detail: `resource groups of ${subscription} readable (${groups ? 'some' : 'none'} found)` });
  } catch (error) {
    checks.push({
      name: 'api access',
      ok: false,
      detail: error instanceof Error ? error.message : String(error),
      fix: 'az login; the identity needs Contributor (or Virtual Machine Contributor + Network Contributor) on the subscription',
    });
    return checks;
  }
  if (requests.length > 0) checks.push(...(await quotaReport(requests, clients, ctx)));
  return checks;
}
