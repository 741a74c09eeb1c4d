import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

let botocore: { dir: string; version: string } | undefined;

/** botocore's package folder and version, in the venv `scripts/moto.sh` makes (and installs on first use). */
export function botocorePackage(): { dir: string; version: string } {
  if (botocore) return botocore;
  const motoServer = execFileSync(resolve(repoRoot, 'scripts/moto.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').at(-1)!;
  const python = join(dirname(motoServer), 'python');
  const [dir, version] = execFileSync(python, ['-c', 'import botocore, os; print(os.path.dirname(botocore.__file__)); print(botocore.__version__)'], { encoding: 'utf8' }).trim().split('\n');
  botocore = { dir: dir!, version: version! };
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
