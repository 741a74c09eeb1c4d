import type { MemberRef, ServiceModel, Shape } from './botocore-model.js';

/**
 * Checks a request against its operation's input shape in a botocore
 * service model, as AWS would before acting on it: every parameter known
 * (EC2 answers `UnknownParameter`), required members present, types,
 * enums, lengths, ranges and patterns of the model, and the constraints the
 * model states only in a member's documentation — the character set of
 * security group names and descriptions ("Valid characters: a-z, A-Z, 0-9,
 * spaces, and ._-:/()#,@[]+=&;{}!$*"), "Up to 255 characters in length",
 * "Can't start with sg-". Each problem names the parameter as sent.
 */
export interface Violation {
  readonly field: string;
  readonly problem: string;
}

/** Constraints read from a member's documentation (HTML in the model). */
interface DocumentedConstraints {
  readonly charset?: RegExp;
  readonly charsetText?: string;
  readonly maxLength?: number;
  readonly forbiddenPrefix?: string;
}

const decode = (html: string) =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"');

export function documentedConstraints(doc: string | undefined): DocumentedConstraints {
  if (!doc) return {};
  const out: { charset?: RegExp; charsetText?: string; maxLength?: number; forbiddenPrefix?: string } = {};
  const chars = /(?:Valid characters:|Allowed characters are) a-z, A-Z, 0-9, spaces, and ([^<\s]+)\s*</.exec(doc);
  if (chars) {
    const extra = decode(chars[1]!);
    out.charsetText = `a-z, A-Z, 0-9, spaces, and ${extra}`;
    out.charset = new RegExp(`^[a-zA-Z0-9 ${extra.replace(/[\\\][^-]/g, '\\$&')}]*$`);
  }
  const length = /Up to (\d+) characters in length/.exec(doc);
  if (length) out.maxLength = Number(length[1]);
  const prefix = /Can't start with <code>([^<]+)<\/code>/.exec(doc);
  if (prefix) out.forbiddenPrefix = decode(prefix[1]!);
  return out;
}

/** Smithy patterns are ECMAScript regexes, not anchored. */
function modelPattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
}

function checkScalar(model: ServiceModel, ref: MemberRef, shape: Shape, field: string, raw: unknown, query: boolean, out: Violation[]): void {
  const bad = (problem: string): void => {
    out.push({ field, problem });
  };
  switch (shape.type) {
    case 'string': {
      if (typeof raw !== 'string') return bad(`expected a string, got ${JSON.stringify(raw)}`);
      if (shape.enum && !shape.enum.includes(raw))
        return bad(`${JSON.stringify(raw)} is not one of the model's values (${shape.enum.slice(0, 12).join(', ')}${shape.enum.length > 12 ? ', …' : ''})`);
      if (shape.min !== undefined && raw.length < shape.min) bad(`shorter than ${shape.min} characters`);
      if (shape.max !== undefined && raw.length > shape.max) bad(`longer than ${shape.max} characters`);
      if (shape.pattern !== undefined && !modelPattern(shape.pattern).test(raw)) bad(`does not match the model's pattern ${shape.pattern}`);
      const documented = documentedConstraints(ref.documentation);
      if (documented.charset && !documented.charset.test(raw)) {
        const offending = [...raw].filter((c) => !documented.charset!.test(c));
        bad(`${JSON.stringify(raw)} has characters the API refuses (${[...new Set(offending)].map((c) => JSON.stringify(c)).join(' ')}); valid: ${documented.charsetText}`);
      }
      if (documented.maxLength !== undefined && raw.length > documented.maxLength) bad(`longer than the documented ${documented.maxLength} characters`);
      if (documented.forbiddenPrefix && raw.startsWith(documented.forbiddenPrefix)) bad(`must not start with ${documented.forbiddenPrefix}`);
      return;
    }
    case 'integer':
    case 'long': {
      const n = query ? (typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : NaN) : typeof raw === 'number' && Number.isInteger(raw) ? raw : NaN;
      if (Number.isNaN(n)) return bad(`expected an integer, got ${JSON.stringify(raw)}`);
      if (shape.min !== undefined && n < shape.min) bad(`less than the minimum ${shape.min}`);
      if (shape.max !== undefined && n > shape.max) bad(`more than the maximum ${shape.max}`);
      return;
    }
    case 'float':
    case 'double': {
      const n = query ? Number(raw) : raw;
      if (typeof n !== 'number' || Number.isNaN(n)) bad(`expected a number, got ${JSON.stringify(raw)}`);
      return;
    }
    case 'boolean':
      if (query ? raw !== 'true' && raw !== 'false' : typeof raw !== 'boolean') bad(`expected a boolean, got ${JSON.stringify(raw)}`);
      return;
    case 'timestamp':
      if (query ? Number.isNaN(Date.parse(String(raw))) : typeof raw !== 'number' && Number.isNaN(Date.parse(String(raw)))) bad(`expected a timestamp, got ${JSON.stringify(raw)}`);
      return;
    case 'blob':
      if (typeof raw !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(raw)) bad('expected base64 data');
      return;
    default:
      bad(`the model's type ${shape.type} is not checked by the stand-in`);
  }
}

/** EC2's Query names: `queryName`, else `locationName` capitalised, else the member name (botocore's EC2Serializer). */
function ec2Name(memberName: string, ref: MemberRef): string {
  if (ref.queryName) return ref.queryName;
  if (ref.locationName) return ref.locationName[0]!.toUpperCase() + ref.locationName.slice(1);
  return memberName;
}

/** Validate EC2 Query parameters (`Action` and `Version` excluded) against the action's input shape. */
export function validateEc2Query(model: ServiceModel, action: string, params: URLSearchParams): Violation[] {
  const operation = model.operations[action];
  if (!operation) return [{ field: 'Action', problem: `${action} is not an operation of ${model.source}` }];
  const sent = new Map([...params].filter(([k]) => k !== 'Action' && k !== 'Version'));
  const used = new Set<string>();
  const out: Violation[] = [];
  const has = (prefix: string) => sent.has(prefix) || [...sent.keys()].some((k) => k.startsWith(`${prefix}.`));

  const walk = (ref: MemberRef, prefix: string) => {
    const shape = model.shapes[ref.shape]!;
    if (shape.type === 'structure') {
      for (const [name, member] of Object.entries(shape.members ?? {})) {
        const key = prefix ? `${prefix}.${ec2Name(name, member)}` : ec2Name(name, member);
        if (has(key)) walk(member, key);
        else if (shape.required?.includes(name)) out.push({ field: key, problem: 'required by the model, missing' });
      }
      return;
    }
    if (shape.type === 'list') {
      let count = 0;
      for (let i = 1; has(`${prefix}.${i}`); i++, count++) walk(shape.member!, `${prefix}.${i}`);
      if (sent.has(prefix) && sent.get(prefix) === '' && count === 0) used.add(prefix);
      if (shape.min !== undefined && count < shape.min) out.push({ field: prefix, problem: `fewer than ${shape.min} items` });
      if (shape.max !== undefined && count > shape.max) out.push({ field: prefix, problem: `more than ${shape.max} items` });
      return;
    }
    if (shape.type === 'map') {
      out.push({ field: prefix, problem: 'maps are not checked by the stand-in' });
      return;
    }
    if (!sent.has(prefix)) return;
    used.add(prefix);
    checkScalar(model, ref, shape, prefix, sent.get(prefix), true, out);
  };
  if (operation.input) walk(operation.input, '');
  for (const key of sent.keys()) if (!used.has(key)) out.push({ field: key, problem: `unknown parameter for ${action} in ${model.source}` });
  return out;
}

/** Validate a JSON-protocol body (Service Quotas) against the operation's input shape. */
export function validateJson(model: ServiceModel, operationName: string, body: unknown): Violation[] {
  const operation = model.operations[operationName];
  if (!operation) return [{ field: 'X-Amz-Target', problem: `${operationName} is not an operation of ${model.source}` }];
  const out: Violation[] = [];
  const walk = (ref: MemberRef, value: unknown, field: string) => {
    const shape = model.shapes[ref.shape]!;
    if (shape.type === 'structure') {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return void out.push({ field: field || '(body)', problem: 'expected an object' });
      const object = value as Record<string, unknown>;
      for (const name of shape.required ?? []) if (object[name] === undefined) out.push({ field: field ? `${field}.${name}` : name, problem: 'required by the model, missing' });
      for (const [name, v] of Object.entries(object)) {
        const member = shape.members?.[name];
        const at = field ? `${field}.${name}` : name;
        if (!member) out.push({ field: at, problem: `unknown member for ${operationName} in ${model.source}` });
        else if (v !== undefined && v !== null) walk(member, v, at);
      }
      return;
    }
    if (shape.type === 'list') {
      if (!Array.isArray(value)) return void out.push({ field, problem: 'expected a list' });
      value.forEach((v, i) => walk(shape.member!, v, `${field}[${i}]`));
      return;
    }
    if (shape.type === 'map') {
      if (typeof value !== 'object' || value === null) return void out.push({ field, problem: 'expected a map' });
      for (const [k, v] of Object.entries(value)) {
        walk(shape.key!, k, `${field}{key}`);
        walk(shape.value!, v, `${field}.${k}`);
      }
      return;
    }
    checkScalar(model, ref, shape, field, value, false, out);
  };
  walk(operation.input ?? { shape: '' }, body ?? {}, '');
  return out;
}
