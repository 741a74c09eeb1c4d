import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { DiagnosticCheck } from '@netbench/plugin-api';

interface CliSubscription {
  id?: string;
  name?: string;
  isDefault?: boolean;
  tenantId?: string;
  user?: { name?: string; type?: string };
}

const configDir = () => process.env['AZURE_CONFIG_DIR'] ?? join(homedir(), '.azure');
const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The Azure CLI's default subscription (`az account show`), read from its profile file. */
export function cliDefaultSubscription(): CliSubscription | undefined {
  try {
    // The CLI writes the profile with a UTF-8 byte order mark.
    const text = readFileSync(join(configDir(), 'azureProfile.json'), 'utf8').replace(/^\uFEFF/, '');
    const profile = JSON.parse(text) as { subscriptions?: CliSubscription[] };
    return profile.subscriptions?.find((s) => s.isDefault);
  } catch {
    return undefined;
  }
}

/** The subscription to use: the spec's, else `AZURE_SUBSCRIPTION_ID`, else the Azure CLI's default. */
export function resolveSubscription(configured?: string): string | undefined {
  return configured ?? str(process.env['AZURE_SUBSCRIPTION_ID']) ?? str(cliDefaultSubscription()?.id);
}

/**
 * Which `DefaultAzureCredential` source would answer, found without any
 * network call: environment (service principal or workload identity), the
 * Azure CLI's login, or none of those (managed identity may still work on an
 * Azure VM; only a token request can tell).
 */
export function credentialSource(): { source: string; identity?: string } | undefined {
  if (process.env['NETBENCH_AZURE_ACCESS_TOKEN']) return { source: 'static token (NETBENCH_AZURE_ACCESS_TOKEN)' };
  const clientId = str(process.env['AZURE_CLIENT_ID']);
  if (clientId && process.env['AZURE_FEDERATED_TOKEN_FILE']) return { source: 'workload identity (AZURE_FEDERATED_TOKEN_FILE)', identity: clientId };
  if (clientId && (process.env['AZURE_CLIENT_SECRET'] || process.env['AZURE_CLIENT_CERTIFICATE_PATH']))
    return { source: 'service principal (AZURE_CLIENT_ID)', identity: clientId };
  const cli = cliDefaultSubscription();
  if (cli?.user?.name) return { source: 'Azure CLI login', identity: `${cli.user.name} (${cli.user.type ?? 'user'})` };
  return undefined;
}

export function diagnoseCredentials(): DiagnosticCheck[] {
  const found = credentialSource();
  const subscription = resolveSubscription();
  const endpoint = process.env['NETBENCH_AZURE_ENDPOINT'];
  return [
    found
      ? { name: 'credentials', ok: true, detail: `${found.source}${found.identity ? `: ${found.identity}` : ''}` }
      : {
          name: 'credentials',
          ok: false,
          severity: 'warning',
          detail: 'no service principal in the environment and no Azure CLI login; only a managed identity (on an Azure VM) could still answer',
          fix: 'az login, or set AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET',
        },
    subscription
      ? { name: 'subscription', ok: true, detail: subscription }
      : {
          name: 'subscription',
          ok: false,
          severity: 'warning',
          detail: 'no subscription configured',
          fix: 'set subscription: on the hosts, AZURE_SUBSCRIPTION_ID, or az account set -s ID',
        },
    ...(endpoint ? [{ name: 'endpoint', ok: true, detail: `${endpoint} (NETBENCH_AZURE_ENDPOINT)`, severity: 'warning' as const }] : []),
  ];
}
