import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { DiagnosticCheck } from '@netbench/plugin-api';
import { loadPriceTable } from './prices.js';
import type { AwsSettings } from './settings.js';

/** Where the SDK's chain would find credentials, judged from the environment and files only (no network). */
export function credentialSource(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) return 'environment (AWS_ACCESS_KEY_ID)';
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE) return 'web identity token (AWS_WEB_IDENTITY_TOKEN_FILE)';
  if (env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI || env.AWS_CONTAINER_CREDENTIALS_FULL_URI) return 'container credentials';
  const credentials = env.AWS_SHARED_CREDENTIALS_FILE ?? join(homedir(), '.aws', 'credentials');
  const config = env.AWS_CONFIG_FILE ?? join(homedir(), '.aws', 'config');
  const profile = env.AWS_PROFILE ?? 'default';
  if (existsSync(credentials) || existsSync(config)) return `shared config, profile ${profile}`;
  return undefined;
}

/** Offline facts for every `netbench doctor`: where credentials would come from, the price table. */
export function offlineChecks(settings: AwsSettings): DiagnosticCheck[] {
  const source = credentialSource();
  const table = loadPriceTable(settings.pricesFile);
  return [
    {
      name: 'credentials',
      ok: source !== undefined,
      severity: 'warning',
      detail: source ?? 'none in the environment or ~/.aws (instance/container metadata not probed)',
      fix: 'aws configure, aws sso login, or set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; `netbench doctor --cloud aws` checks them',
    },
    {
      name: 'price table',
      ok: true,
      detail: `${table.date}${settings.pricesFile ? ` with ${settings.pricesFile}` : ''}${settings.endpoint ? `; endpoint ${settings.endpoint}` : ''}`,
    },
  ];
}
