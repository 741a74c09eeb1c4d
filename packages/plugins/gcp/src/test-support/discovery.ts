import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Compute Engine API's discovery document (`compute.v1.json`), the
 * official machine-readable definition Google's client libraries are
 * generated from, as PyPI's google-api-python-client ships it
 * (`googleapiclient/discovery_cache/documents/`). `scripts/moto.sh` installs
 * it in the tests' Python venv; it is read at test time, never copied here.
 *
 * `validateGceRequest` checks a request as the API would: the method exists
 * for the path; path parameters match their patterns; query parameters are
 * the method's or the standard ones; the body has only the schema's
 * properties (no output-only ones), the fields the schema marks required for
 * this method (`annotations.required`), the schema's types, enums and
 * patterns, and a URL (full or partial: containing `/`) where the schema
 * documents a URL ("URL of …", "Full or partial URL …").
 */
export interface Violation {
  readonly field: string;
  readonly problem: string;
}

interface Schema {
  readonly id?: string;
  readonly type?: string;
  readonly $ref?: string;
  readonly properties?: Record<string, Schema>;
  readonly additionalProperties?: Schema;
  readonly items?: Schema;
  readonly enum?: readonly string[];
  readonly pattern?: string;
  readonly format?: string;
  readonly readOnly?: boolean;
  readonly description?: string;
  readonly annotations?: { readonly required?: readonly string[] };
}

interface Method {
  readonly id: string;
  readonly httpMethod: string;
  readonly path: string;
  readonly flatPath?: string;
  readonly parameters?: Record<string, Schema & { readonly location?: string; readonly required?: boolean }>;
  readonly request?: { readonly $ref: string };
}

interface Resource {
  readonly methods?: Record<string, Method>;
  readonly resources?: Record<string, Resource>;
}

interface Document {
  readonly revision: string;
  readonly version: string;
  readonly schemas: Record<string, Schema>;
  readonly parameters: Record<string, Schema & { readonly location?: string }>;
  readonly resources: Record<string, Resource>;
}

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../..');

/**
 * A package of the venv `scripts/moto.sh` makes, found on disk (fast: no
 * Python started) — or, when the venv lacks it, after running moto.sh, which
 * installs it. `distribution` is the name of its `*.dist-info` folder.
 */
function venvPackage(module: string, distribution: string): { dir: string; version: string } {
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

let loaded: { doc: Document; source: string; routes: { method: Method; re: RegExp; names: string[] }[] } | undefined;

function load(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const { dir, version } = venvPackage('googleapiclient', 'google_api_python_client');
  const doc = JSON.parse(readFileSync(join(dir, 'discovery_cache', 'documents', 'compute.v1.json'), 'utf8')) as Document;
  const routes: { method: Method; re: RegExp; names: string[] }[] = [];
  const visit = (resource: Resource) => {
    for (const method of Object.values(resource.methods ?? {})) {
      const template = method.flatPath ?? method.path;
      const names: string[] = [];
      const re = new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
          names.push(name);
          return '([^/]+)';
        })}$`,
      );
      routes.push({ method, re, names });
    }
    for (const child of Object.values(resource.resources ?? {})) visit(child);
  };
  for (const resource of Object.values(doc.resources)) visit(resource);
  loaded = { doc, source: `compute.v1 discovery revision ${doc.revision} (google-api-python-client ${version})`, routes };
  return loaded;
}

/** Where the definitions come from, for messages and docs. */
export function discoverySource(): string {
  return load().source;
}

const anchored = (pattern: string) => new RegExp(`^(?:${pattern})$`);
const URL_DOC_RE = /^(?:\[Output Only\] )?(?:The )?(?:full or partial )?URL (?:of|to)\b/i;

function checkValue(schema: Schema, value: unknown, field: string, methodId: string, out: Violation[], depth = 0): void {
  const { doc } = load();
  if (depth > 30 || value === undefined || value === null) return;
  if (schema.$ref) return checkValue(doc.schemas[schema.$ref]!, value, field, methodId, out, depth + 1);
  const bad = (problem: string): void => {
    out.push({ field, problem });
  };
  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return bad('expected an object');
      const object = value as Record<string, unknown>;
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const required = (property.annotations?.required ?? []).includes(methodId);
        if (required && (object[name] === undefined || object[name] === null)) out.push({ field: field ? `${field}.${name}` : name, problem: `required for ${methodId}, missing` });
      }
      for (const [name, v] of Object.entries(object)) {
        if (v === undefined || v === null) continue;
        const at = field ? `${field}.${name}` : name;
        const property = schema.properties?.[name] ?? schema.additionalProperties;
        if (!property) {
          out.push({ field: at, problem: `not a property of ${schema.id ?? 'this object'}` });
          continue;
        }
        if (property.readOnly) out.push({ field: at, problem: 'output only: not set by the client' });
        checkValue(property, v, at, methodId, out, depth + 1);
      }
      return;
    }
    case 'array':
      if (!Array.isArray(value)) return bad('expected a list');
      value.forEach((v, i) => checkValue(schema.items!, v, `${field}[${i}]`, methodId, out, depth + 1));
      return;
    case 'boolean':
      if (typeof value !== 'boolean') bad(`expected a boolean, got ${JSON.stringify(value)}`);
      return;
    case 'integer':
      if (!Number.isInteger(value)) bad(`expected an integer, got ${JSON.stringify(value)}`);
      return;
    case 'number':
      if (typeof value !== 'number') bad(`expected a number, got ${JSON.stringify(value)}`);
      return;
    case 'string': {
      // int64/uint64 travel as decimal strings; numbers are accepted too.
      if (schema.format === 'int64' || schema.format === 'uint64') {
        if (!/^-?\d+$/.test(String(value))) bad(`expected a ${schema.format}, got ${JSON.stringify(value)}`);
        return;
      }
      if (typeof value !== 'string') return bad(`expected a string, got ${JSON.stringify(value)}`);
      if (schema.enum && !schema.enum.includes(value)) return bad(`${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
      if (schema.pattern && !anchored(schema.pattern).test(value)) bad(`${JSON.stringify(value)} does not match ${schema.pattern}`);
      if (schema.description && URL_DOC_RE.test(schema.description.trim()) && !value.includes('/'))
        bad(`${JSON.stringify(value)} is not a URL; the API documents "${schema.description.split('\n')[0]}"`);
      return;
    }
  }
}

/** Check one request (path without the `/compute/v1/` prefix) against the discovery document. */
export function validateGceRequest(httpMethod: string, path: string, query: Record<string, string>, body: unknown): Violation[] {
  const { doc, routes } = load();
  const route = routes.find((r) => r.method.httpMethod === httpMethod && r.re.test(path));
  if (!route) return [{ field: '(path)', problem: `no compute.v1 method for ${httpMethod} ${path}` }];
  const { method } = route;
  const out: Violation[] = [];
  const values = route.re.exec(path)!.slice(1).map(decodeURIComponent);
  route.names.forEach((name, i) => {
    const parameter = method.parameters?.[name];
    if (parameter?.pattern && !anchored(parameter.pattern).test(values[i]!))
      out.push({ field: name, problem: `path parameter ${JSON.stringify(values[i])} does not match ${parameter.pattern}` });
  });
  for (const [name, value] of Object.entries(query)) {
    const parameter = method.parameters?.[name] ?? doc.parameters[name];
    if (!parameter || parameter.location === 'path') {
      out.push({ field: `?${name}`, problem: `not a query parameter of ${method.id}` });
      continue;
    }
    if (parameter.enum && !parameter.enum.includes(value)) out.push({ field: `?${name}`, problem: `${JSON.stringify(value)} is not one of ${parameter.enum.join(', ')}` });
    if (parameter.type === 'integer' && !/^-?\d+$/.test(value)) out.push({ field: `?${name}`, problem: 'expected an integer' });
    if (parameter.type === 'boolean' && value !== 'true' && value !== 'false') out.push({ field: `?${name}`, problem: 'expected a boolean' });
  }
  for (const [name, parameter] of Object.entries(method.parameters ?? {})) {
    if (parameter.location === 'query' && parameter.required && query[name] === undefined) out.push({ field: `?${name}`, problem: `required by ${method.id}, missing` });
  }
  if (method.request) checkValue({ $ref: method.request.$ref }, body ?? {}, '', method.id, out);
  else if (body !== undefined && body !== '' && !(typeof body === 'object' && body !== null && Object.keys(body).length === 0))
    out.push({ field: '(body)', problem: `${method.id} takes no request body` });
  return out.map((v) => ({ ...v, field: v.field || '(body)' }));
}
