import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Azure REST API definitions as the installed `@azure/arm-compute`,
 * `@azure/arm-network` and `@azure/arm-resources` ship them: those SDKs are
 * generated from Microsoft's TypeSpec/OpenAPI specs (azure-rest-api-specs).
 * Since the "modular" generation (arm-compute 23+, arm-network 35+,
 * arm-resources 7+) they carry no runtime mappers with `constraints`; what
 * they do carry, and what this reads at test time:
 * - each model's wire serializer and deserializer (`models.js`): which JSON
 *   property paths exist (a body property the SDK's own round trip drops is
 *   one the service does not know);
 * - each model's declaration (`models.d.ts`): required (non-optional,
 *   writable) properties, types, fixed enums (`Known…` enums) and the spec's
 *   documentation, from which the constraints the spec states in prose are
 *   read: disallowed values (`adminUsername`), Linux length limits, "at least
 *   2048-bit … ssh-rsa" key data, "between 100 and 4096" priorities,
 *   "Restricted to 140 chars" descriptions.
 */
export interface Violation {
  readonly field: string;
  readonly problem: string;
}

interface Member {
  readonly name: string;
  readonly optional: boolean;
  readonly readonly: boolean;
  /** The declared type as written (`string`, `Foo[]`, `Record<string, string>`, `"a" | "b"`). */
  readonly type: string;
  readonly doc: string;
}

interface Declarations {
  readonly interfaces: Map<string, { members: Member[]; bases: string[] }>;
  readonly aliases: Map<string, string>;
  /** `KnownX` enum values by X, unless the spec marks the enum deprecated (vmSize). */
  readonly known: Map<string, string[]>;
}

const require = createRequire(import.meta.url);
const PACKAGES = ['@azure/arm-compute', '@azure/arm-network', '@azure/arm-resources'] as const;

/** `dist/commonjs/models/**\/models.{js,d.ts}` of a package, found from its entry point. */
function modelFiles(pkg: string): string[] {
  const root = join(dirname(require.resolve(pkg)), 'models');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f === 'models.js' || f.endsWith('/models.js'))
    .map((f) => join(root, f))
    .sort();
}

/**
 * The generated `models.d.ts` files are regular: one-line members under
 * `export interface X extends Y {`, `export type X = …;`, and
 * `export declare enum KnownX { A = "a", … }`, each after its `/** doc *\/`.
 */
function parseDeclarations(text: string, d: Declarations): void {
  let doc = '';
  let inDoc = false;
  let iface: { members: Member[]; bases: string[] } | undefined;
  let known: { name: string; values: string[] } | undefined;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (inDoc || t.startsWith('/**')) {
      doc += ` ${t.replace(/^\/\*\*|\*\/$|^\*/g, '').trim()}`;
      inDoc = !t.endsWith('*/');
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = /^export interface (\w+)(?: extends ([\w, ]+))? \{$/.exec(t))) {
      iface = { members: [], bases: m[2] ? m[2].split(',').map((b) => b.trim()) : [] };
      if (!d.interfaces.has(m[1]!)) d.interfaces.set(m[1]!, iface);
    } else if ((m = /^export declare enum Known(\w+) \{$/.exec(t))) {
      known = /deprecated/i.test(doc) ? undefined : { name: m[1]!, values: [] };
    } else if (t === '}') {
      if (known && !d.known.has(known.name)) d.known.set(known.name, known.values);
      iface = undefined;
      known = undefined;
    } else if (iface && (m = /^(readonly )?("[^"]+"|[\w$]+)(\?)?: (.+);$/.exec(t))) {
      iface.members.push({ name: m[2]!.replace(/"/g, ''), readonly: Boolean(m[1]), optional: Boolean(m[3]), type: m[4]!, doc: doc.trim() });
    } else if (known && (m = /^\w+ = "([^"]*)",?$/.exec(t))) {
      known.values.push(m[1]!);
    } else if ((m = /^export type (\w+) = (.+);$/.exec(t)) && !d.aliases.has(m[1]!)) {
      d.aliases.set(m[1]!, m[2]!);
    }
    doc = '';
  }
}

let declarations: Declarations | undefined;
let codecs: Map<string, { serialize: (m: unknown) => unknown; deserialize: (w: unknown) => unknown; source: string }> | undefined;
let versions: Record<string, string> | undefined;

function load(): void {
  if (declarations) return;
  const d: Declarations = { interfaces: new Map(), aliases: new Map(), known: new Map() };
  codecs = new Map();
  versions = {};
  for (const pkg of PACKAGES) {
    versions[pkg] = (JSON.parse(readFileSync(join(dirname(require.resolve(pkg)), '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
    for (const js of modelFiles(pkg)) {
      const module = require(js) as Record<string, (x: unknown) => unknown>;
      for (const [name, fn] of Object.entries(module)) {
        const m = /^(\w+)Serializer$/.exec(name);
        const de = m ? module[`${m[1]}Deserializer`] : undefined;
        if (m && de && !codecs.has(m[1]!)) codecs.set(m[1]!, { serialize: fn, deserialize: de, source: `${pkg}@${versions[pkg]}` });
      }
      parseDeclarations(readFileSync(js.replace(/\.js$/, '.d.ts'), 'utf8'), d);
    }
  }
  declarations = d;
}

/** Package versions the definitions were read from. */
export function armDefinitionVersions(): Record<string, string> {
  load();
  return versions!;
}

function allMembers(name: string): Member[] {
  const decl = declarations!.interfaces.get(name);
  if (!decl) return [];
  return [...decl.bases.flatMap((b) => allMembers(b)), ...decl.members];
}

/** Azure's documented SSH key formats: the spec's "at least 2048-bit … ssh-rsa", plus Ed25519 (supported for Linux VMs since 2024, learn.microsoft.com/azure/virtual-machines/ssh-keys-azure-cli). */
function keyDataProblem(value: string, minBits: number): string | undefined {
  const [type, data] = value.trim().split(/\s+/);
  if (type === 'ssh-ed25519' && data && Buffer.from(data, 'base64').length === 51) return undefined;
  if (type === 'ssh-rsa' && data) {
    const blob = Buffer.from(data, 'base64');
    let at = 0;
    const next = () => {
      const length = blob.readUInt32BE(at);
      const v = blob.subarray(at + 4, at + 4 + length);
      at += 4 + length;
      return v;
    };
    next();
    next();
    const n = next();
    const lead = n.findIndex((b) => b !== 0);
    const bits = lead < 0 ? 0 : (n.length - lead) * 8 - Math.clz32(n[lead]!) + 24;
    return bits >= minBits ? undefined : `an RSA key of ${bits} bits; the API needs at least ${minBits}`;
  }
  return `a ${type} key; the API takes ssh-rsa (at least ${minBits} bits) or ssh-ed25519 public keys`;
}

/** Constraints the spec states in a property's documentation. */
function documented(doc: string, value: unknown, field: string, out: Violation[]): void {
  const bad = (problem: string): void => {
    out.push({ field, problem });
  };
  if (typeof value === 'string') {
    const disallowed = /\*\*Disallowed values:\*\*\s*((?:"[^"]*"(?:,\s*)?)+)/.exec(doc);
    if (disallowed) {
      const names = [...disallowed[1]!.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
      if (names.includes(value)) bad(`"${value}" is a disallowed value (${names.slice(0, 8).join(', ')}, …)`);
    }
    const min = /\*\*Minimum-length \(Linux\):\*\*\s*(\d+)/.exec(doc);
    if (min && value.length < Number(min[1])) bad(`shorter than the documented Linux minimum of ${min[1]} characters`);
    const max = /\*\*Max-length \(Linux\):\*\*\s*(\d+)/.exec(doc);
    if (max && value.length > Number(max[1])) bad(`longer than the documented Linux maximum of ${max[1]} characters`);
    const restricted = /Restricted to (\d+) chars/.exec(doc);
    if (restricted && value.length > Number(restricted[1])) bad(`longer than the documented ${restricted[1]} characters`);
    const key = /at least (\d+)-bit and in ssh-rsa format/.exec(doc);
    if (key) {
      const problem = keyDataProblem(value, Number(key[1]));
      if (problem) bad(problem);
    }
  }
  if (typeof value === 'number') {
    const range = /The value can be between (\d+) and (\d+)/.exec(doc);
    if (range && (value < Number(range[1]) || value > Number(range[2]))) bad(`${value} is outside the documented ${range[1]}–${range[2]}`);
  }
}

/** Split `A | B` at the top level (not inside `<…>` or `(…)`). */
function topLevel(type: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i]!;
    if (c === '<' || c === '(') depth++;
    else if (c === '>' || c === ')') depth--;
    else if (depth === 0 && type.startsWith(separator, i)) {
      parts.push(type.slice(from, i).trim());
      from = i + separator.length;
    }
  }
  parts.push(type.slice(from).trim());
  return parts;
}

function checkType(type: string, value: unknown, field: string, out: Violation[], seen: number): void {
  if (value === undefined || value === null || seen > 40) return;
  const bad = (problem: string): void => {
    out.push({ field, problem });
  };
  type = type.trim();
  const union = topLevel(type, ' | ');
  if (union.length > 1) {
    const literals = union.filter((u) => /^"[^"]*"$/.test(u)).map((u) => u.slice(1, -1));
    if (literals.length === union.length && !literals.includes(value as string)) bad(`${JSON.stringify(value)} is not one of ${literals.join(', ')}`);
    return;
  }
  if (type === 'string') {
    if (typeof value !== 'string') bad(`expected a string, got ${JSON.stringify(value)}`);
    return;
  }
  if (type === 'number') {
    if (typeof value !== 'number') bad(`expected a number, got ${JSON.stringify(value)}`);
    return;
  }
  if (type === 'boolean') {
    if (typeof value !== 'boolean') bad(`expected a boolean, got ${JSON.stringify(value)}`);
    return;
  }
  if (/^"[^"]*"$/.test(type)) {
    if (value !== type.slice(1, -1)) bad(`expected ${type}`);
    return;
  }
  let m: RegExpExecArray | null;
  if ((m = /^\((.+)\)\[\]$/.exec(type)) || (m = /^([\w.]+)\[\]$/.exec(type)) || (m = /^Array<(.+)>$/.exec(type))) {
    if (!Array.isArray(value)) return bad('expected a list');
    value.forEach((v, i) => checkType(m![1]!, v, `${field}[${i}]`, out, seen + 1));
    return;
  }
  if ((m = /^Record<string, (.+)>$/.exec(type))) {
    if (typeof value !== 'object' || Array.isArray(value)) return bad('expected a map');
    for (const [k, v] of Object.entries(value as object)) checkType(m[1]!, v, `${field}.${k}`, out, seen + 1);
    return;
  }
  if (!/^\w+$/.test(type) || type === 'Date' || type === 'any' || type === 'unknown' || type === 'Uint8Array') return;
  const known = declarations!.known.get(type);
  if (known && typeof value === 'string' && !known.some((k) => k.toLowerCase() === value.toLowerCase())) {
    bad(`${JSON.stringify(value)} is not a known ${type} (${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''})`);
    return;
  }
  const alias = declarations!.aliases.get(type);
  if (alias) return checkType(alias, value, field, out, seen + 1);
  if (declarations!.interfaces.has(type)) checkModel(type, value, field, out, seen + 1);
}

function checkModel(name: string, value: unknown, field: string, out: Violation[], seen = 0): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    out.push({ field, problem: `expected an object (${name})` });
    return;
  }
  const object = value as Record<string, unknown>;
  for (const member of allMembers(name)) {
    const at = field ? `${field}.${member.name}` : member.name;
    const v = object[member.name];
    if (v === undefined) {
      if (!member.optional && !member.readonly) out.push({ field: at, problem: `required by ${name}, missing` });
      continue;
    }
    checkType(member.type, v, at, out, seen);
    documented(member.doc, v, at, out);
  }
}

/** Property paths of a JSON value (`a.b`, `list[0].c`), leaves only. */
function paths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => paths(v, `${prefix}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return [prefix];
    return entries.flatMap(([k, v]) => paths(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

/**
 * Check a request body the way the resource provider would, for the model
 * `model` (`VirtualMachine`, `NetworkInterface`, …). Fields are named by
 * their wire path for unknown ones, by their model path otherwise.
 */
export function validateArmBody(model: string, body: unknown): Violation[] {
  load();
  const codec = codecs!.get(model[0]!.toLowerCase() + model.slice(1));
  if (!codec) return [{ field: '(body)', problem: `no ${model} model in ${PACKAGES.join(', ')}` }];
  const out: Violation[] = [];
  const decoded = codec.deserialize(body);
  const known = new Set(paths(codec.serialize(decoded)));
  for (const path of paths(body)) {
    if (!known.has(path)) out.push({ field: path, problem: `not a writable property of ${model} in ${codec.source}` });
  }
  checkModel(model, decoded, model, out);
  return out;
}
