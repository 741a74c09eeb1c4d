import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/**
 * botocore's service models: the official machine-readable AWS API
 * definitions (the JSON that boto3 and the AWS CLI are generated from),
 * loaded at test time from the botocore that `scripts/moto.sh` installs
 * beside moto. Nothing of them is copied into the repository.
 */
export interface Shape {
  readonly type: string;
  readonly members?: Record<string, MemberRef>;
  readonly member?: MemberRef;
  readonly key?: MemberRef;
  readonly value?: MemberRef;
  readonly required?: readonly string[];
  readonly enum?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly pattern?: string;
  readonly flattened?: boolean;
}

export interface MemberRef {
  readonly shape: string;
  readonly documentation?: string;
  readonly locationName?: string;
  readonly queryName?: string;
}

export interface ServiceModel {
  readonly metadata: { readonly apiVersion: string; readonly protocol: string; readonly serviceId: string; readonly targetPrefix?: string };
  readonly operations: Record<string, { readonly name: string; readonly input?: { readonly shape: string } }>;
  readonly shapes: Record<string, Shape>;
  /** Where the model came from: `botocore <version> <service>/<apiVersion>`. */
  readonly source: string;
}

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../..');

/**
 * A package of the venv `scripts/moto.sh` makes, found on disk (fast: no
 * Python started) — or, when the venv lacks it, after running moto.sh, which
 * installs it. `distribution` is the name of its `*.dist-info` folder.
 */
export function venvPackage(module: string, distribution: string): { dir: string; version: string } {
  const find = () => {
    const venv = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'netbench', 'moto', 'lib');
    if (!existsSync(venv)) return undefined;
    for (const python of readdirSync(venv).filter((d) => d.startsWith('python'))) {
      const site = join(venv, python, 'site-packages');
      const info = existsSync(site) ? readdirSync(site).find((d) => d.startsWith(`${distribution}-`) && d.endsWith('.dist-info')) : undefined;
      if (info && existsSync(join(site, module))) return { dir: join(site, module), version: info.slice(distribution.length + 1, -'.dist-info'.length) };
    }
    return undefined;
  };
  const found = find();
  if (found) return found;
  execFileSync(resolve(repoRoot, 'scripts/moto.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const installed = find();
  if (!installed) throw new Error(`scripts/moto.sh did not install ${distribution} (module ${module})`);
  return installed;
}

let botocore: { dir: string; version: string } | undefined;

/** botocore's package folder and version, in the venv `scripts/moto.sh` makes (and installs on first use). */
export function botocorePackage(): { dir: string; version: string } {
  botocore ??= venvPackage('botocore', 'botocore');
  return botocore;
}

const models = new Map<string, ServiceModel>();

/** `service-2.json` (gzipped since botocore 1.32) of one service and API version. */
export function serviceModel(service: string, apiVersion: string): ServiceModel {
  const key = `${service}/${apiVersion}`;
  const cached = models.get(key);
  if (cached) return cached;
  const { dir, version } = botocorePackage();
  const base = join(dir, 'data', service, apiVersion, 'service-2.json');
  const text = existsSync(`${base}.gz`) ? gunzipSync(readFileSync(`${base}.gz`)).toString('utf8') : readFileSync(base, 'utf8');
  const model = { ...(JSON.parse(text) as Omit<ServiceModel, 'source'>), source: `botocore ${version} ${key}` };
  models.set(key, model);
  return model;
}
