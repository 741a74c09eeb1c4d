import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { DiagnosticCheck } from '@netbench/plugin-api';

/** What Application Default Credentials will use, found without any network call. */
export interface AdcInfo {
  /** `GOOGLE_APPLICATION_CREDENTIALS`, the gcloud ADC file, a static token, or unknown (maybe the metadata server). */
  readonly source: 'env-file' | 'gcloud-adc' | 'static-token' | 'none';
  readonly file?: string;
  /** `service_account`, `authorized_user`, `external_account`, ... */
  readonly type?: string;
  /** Service account e-mail or OAuth client id, when the file says. */
  readonly identity?: string;
  readonly project?: string;
}

const gcloudDir = () => process.env['CLOUDSDK_CONFIG'] ?? join(homedir(), '.config', 'gcloud');

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

export function adcInfo(): AdcInfo {
  if (process.env['NETBENCH_GCP_ACCESS_TOKEN']) return { source: 'static-token', identity: 'NETBENCH_GCP_ACCESS_TOKEN' };
  const envFile = process.env['GOOGLE_APPLICATION_CREDENTIALS'];
  const file = envFile ?? join(gcloudDir(), 'application_default_credentials.json');
  const json = readJson(file);
  if (!json) return { source: 'none', ...(envFile ? { file } : {}) };
  const identity = str(json['client_email']) ?? str(json['service_account_impersonation_url'])?.replace(/.*serviceAccounts\/([^:]+).*/, '$1') ?? str(json['client_id']);
  const project = str(json['project_id']) ?? str(json['quota_project_id']);
  return {
    source: envFile ? 'env-file' : 'gcloud-adc',
    file,
    ...(str(json['type']) ? { type: str(json['type'])! } : {}),
    ...(identity ? { identity } : {}),
    ...(project ? { project } : {}),
  };
}

/** gcloud's configured project (`[core] project =` of the active configuration). */
function gcloudProject(): string | undefined {
  const dir = gcloudDir();
  let active = 'default';
  try {
    active = readFileSync(join(dir, 'active_config'), 'utf8').trim() || 'default';
  } catch {
    /* the default configuration */
  }
  try {
    const text = readFileSync(join(dir, 'configurations', `config_${active}`), 'utf8');
    let section = '';
    for (const line of text.split('\n')) {
      const header = /^\s*\[([^\]]+)\]/.exec(line);
      if (header) section = header[1]!;
      const kv = /^\s*project\s*=\s*(\S+)/.exec(line);
      if (section === 'core' && kv) return kv[1];
    }
  } catch {
    /* no gcloud configuration */
  }
  return undefined;
}

/** The project to use: the spec's, else the environment's, the ADC file's, gcloud's. */
export function resolveProject(configured?: string): string | undefined {
  return (
    configured ??
    str(process.env['GOOGLE_CLOUD_PROJECT']) ??
    str(process.env['GCLOUD_PROJECT']) ??
    str(process.env['CLOUDSDK_CORE_PROJECT']) ??
    adcInfo().project ??
    gcloudProject()
  );
}

/** `netbench doctor --cloud gcp`: what credentials and project would be used. Creates nothing, calls nothing. */
export function diagnoseCredentials(): DiagnosticCheck[] {
  const adc = adcInfo();
  const project = resolveProject();
  const found = adc.source !== 'none';
  const credential: DiagnosticCheck = found
    ? { name: 'credentials', ok: true, detail: `${adc.source}${adc.file ? ` ${adc.file}` : ''}${adc.type ? ` (${adc.type})` : ''}${adc.identity ? `: ${adc.identity}` : ''}` }
    : {
        name: 'credentials',
        ok: false,
        severity: 'warning',
        detail: 'no ADC file found (GOOGLE_APPLICATION_CREDENTIALS unset, no gcloud application-default login); only the GCE metadata server could still provide credentials',
        fix: 'gcloud auth application-default login, or GOOGLE_APPLICATION_CREDENTIALS=/path/to/key.json',
      };
  const projectCheck: DiagnosticCheck = project
    ? { name: 'project', ok: true, detail: project }
    : { name: 'project', ok: false, severity: 'warning', detail: 'no project configured', fix: 'set project: on the hosts, GOOGLE_CLOUD_PROJECT, or gcloud config set project ID' };
  const endpoint = process.env['NETBENCH_GCP_ENDPOINT'];
  return [credential, projectCheck, ...(endpoint ? [{ name: 'endpoint', ok: true, detail: `${endpoint} (NETBENCH_GCP_ENDPOINT)`, severity: 'warning' as const }] : [])];
}
