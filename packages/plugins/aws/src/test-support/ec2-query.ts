import { randomUUID } from 'node:crypto';

/**
 * The EC2 Query protocol as the stand-in (`moto-plus.ts`) speaks it: form
 * parameters in, XML out. Shapes from the EC2 API Reference:
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/Query-Requests.html (form parameters, `Filter.N`),
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html (error response body).
 */
export const EC2_NAMESPACE = 'http://ec2.amazonaws.com/doc/2016-11-15/';

/** The account moto answers as when the access key is `testing` (its default). */
export const MOTO_ACCOUNT = '123456789012';

export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The region a SigV4 request was signed for (`Credential=AKID/date/REGION/service/aws4_request`); moto routes by it too. */
export function signedRegion(authorization: string | undefined): string {
  return /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\//.exec(authorization ?? '')?.[1] ?? 'us-east-1';
}

/** `Name.1`, `Name.2`, … until the first gap: how the Query protocol flattens a list. */
export function queryList(params: URLSearchParams, prefix: string): string[] {
  const values: string[] = [];
  for (let i = 1; params.has(`${prefix}.${i}`); i++) values.push(params.get(`${prefix}.${i}`)!);
  return values;
}

export interface QueryFilter {
  readonly name: string;
  readonly values: readonly string[];
}

/** `Filter.N.Name` with `Filter.N.Value.M`. */
export function queryFilters(params: URLSearchParams): QueryFilter[] {
  const filters: QueryFilter[] = [];
  for (let i = 1; params.has(`Filter.${i}.Name`); i++) filters.push({ name: params.get(`Filter.${i}.Name`)!, values: queryList(params, `Filter.${i}.Value`) });
  return filters;
}

/** Replace every `Filter.N.*` parameter with `filters`, keeping the rest of the request. */
export function withFilters(params: URLSearchParams, filters: readonly QueryFilter[]): URLSearchParams {
  const out = new URLSearchParams([...params].filter(([key]) => !key.startsWith('Filter.')));
  filters.forEach((filter, i) => {
    out.set(`Filter.${i + 1}.Name`, filter.name);
    filter.values.forEach((value, j) => out.set(`Filter.${i + 1}.Value.${j + 1}`, value));
  });
  return out;
}

export interface Ec2Tag {
  readonly key: string;
  readonly value: string;
}

/** `TagSpecification.N.ResourceType` with `TagSpecification.N.Tag.M.Key/Value`. */
export function queryTagSpecifications(params: URLSearchParams): { resourceType: string; tags: Ec2Tag[] }[] {
  const specs: { resourceType: string; tags: Ec2Tag[] }[] = [];
  for (let i = 1; params.has(`TagSpecification.${i}.ResourceType`); i++) {
    const tags: Ec2Tag[] = [];
    for (let j = 1; params.has(`TagSpecification.${i}.Tag.${j}.Key`); j++) {
      tags.push({ key: params.get(`TagSpecification.${i}.Tag.${j}.Key`)!, value: params.get(`TagSpecification.${i}.Tag.${j}.Value`) ?? '' });
    }
    specs.push({ resourceType: params.get(`TagSpecification.${i}.ResourceType`)!, tags });
  }
  return specs;
}

/** EC2 filter values take `*` (any run) and `?` (one character) wildcards. */
export function filterValueMatches(pattern: string, value: string): boolean {
  if (!/[*?]/.test(pattern)) return pattern === value;
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 's').test(value);
}

/** Whether tags pass a `tag:<key>`, `tag-key` or `tag-value` filter; undefined: not a tag filter. */
export function tagFilterMatches(filter: QueryFilter, tags: readonly Ec2Tag[]): boolean | undefined {
  const any = (candidates: string[]) => candidates.some((c) => filter.values.some((v) => filterValueMatches(v, c)));
  if (filter.name === 'tag-key') return any(tags.map((t) => t.key));
  if (filter.name === 'tag-value') return any(tags.map((t) => t.value));
  if (filter.name.startsWith('tag:')) return any(tags.filter((t) => t.key === filter.name.slice(4)).map((t) => t.value));
  return undefined;
}

export function xml(text: string | number | boolean): string {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export function tagSetXml(tags: readonly Ec2Tag[]): string {
  return tags.length === 0 ? '<tagSet/>' : `<tagSet>${tags.map((t) => `<item><key>${xml(t.key)}</key><value>${xml(t.value)}</value></item>`).join('')}</tagSet>`;
}

const XML_HEADERS = { 'content-type': 'text/xml;charset=UTF-8' };

/** `<ActionResponse xmlns=…><requestId>…</requestId>…</ActionResponse>`. */
export function ec2Response(action: string, inner: string): Reply {
  return {
    status: 200,
    headers: XML_HEADERS,
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="${EC2_NAMESPACE}"><requestId>${randomUUID()}</requestId>${inner}</${action}Response>`,
  };
}

/** EC2's error body: `<Response><Errors><Error><Code/><Message/></Error></Errors><RequestID/></Response>`. */
export function ec2Error(code: string, message: string, status = 400): Reply {
  return {
    status,
    headers: XML_HEADERS,
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${xml(code)}</Code><Message>${xml(message)}</Message></Error></Errors><RequestID>${randomUUID()}</RequestID></Response>`,
  };
}

/** `DryRun=true` on an action the caller may perform: EC2 answers 412 DryRunOperation. */
export function dryRunReply(params: URLSearchParams): Reply | undefined {
  return params.get('DryRun') === 'true' ? ec2Error('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.', 412) : undefined;
}
