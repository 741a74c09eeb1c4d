import { DeleteOptions } from '@kubernetes-models/apimachinery/apis/meta/v1/DeleteOptions';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Service } from 'kubernetes-models/v1/Service';

/**
 * What the API server would refuse in a request body, as `{ field, message }`
 * causes (the `details.causes` of its 422 `Status`). Two layers:
 * - the official OpenAPI definitions: `kubernetes-models` ships validators
 *   generated from Kubernetes' OpenAPI spec (types, required fields, enums);
 * - the validation rules the OpenAPI schema cannot express, from the API
 *   reference and apimachinery's validation (object names, label syntax,
 *   Service port names and uniqueness, affinity terms).
 */
export interface Cause {
  readonly field: string;
  readonly message: string;
}

type Json = Record<string, any>;

/** `data/spec/containers/0` (ajv's path) → `spec.containers[0]` (the API server's field path). */
function fieldPath(instancePath: string): string {
  return instancePath
    .replace(/^\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : `${i ? '.' : ''}${part}`))
    .join('');
}

function schemaCauses(validate: () => void): Cause[] {
  try {
    validate();
    return [];
  } catch (error) {
    const errors = (error as { errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] }).errors;
    if (!errors) return [{ field: '', message: (error as Error).message }];
    return errors.map((e) => ({
      field: [fieldPath(e.instancePath), e.params?.['missingProperty'] as string | undefined].filter(Boolean).join('.'),
      message: `${e.message ?? 'invalid'}${e.params?.['allowedValues'] ? ` (${(e.params['allowedValues'] as string[]).join(', ')})` : ''} [OpenAPI]`,
    }));
  }
}

const DNS1123_LABEL_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL_RE = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME_PART_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const IANA_SVC_NAME_RE = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

function labelKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !DNS1123_SUBDOMAIN_RE.test(prefix))) return 'prefix part must be a DNS-1123 subdomain';
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME_PART_RE.test(name))
    return "name part must consist of alphanumeric characters, '-', '_' or '.', at most 63, starting and ending with an alphanumeric character";
  return undefined;
}

function labelsCauses(labels: unknown, field: string): Cause[] {
  if (labels === undefined) return [];
  const causes: Cause[] = [];
  for (const [key, value] of Object.entries(labels as Record<string, unknown>)) {
    const keyProblem = labelKeyProblem(key);
    if (keyProblem) causes.push({ field, message: `Invalid value: ${JSON.stringify(key)}: ${keyProblem}` });
    if (typeof value !== 'string' || value.length > 63 || (value !== '' && !QUALIFIED_NAME_PART_RE.test(value))) {
      causes.push({
        field: `${field}`,
        message: `Invalid value: ${JSON.stringify(value)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', at most 63`,
      });
    }
  }
  return causes;
}

function metaCauses(body: Json, namespace: string, nameRule: { re: RegExp; max: number; what: string }): Cause[] {
  const meta = body['metadata'] ?? {};
  const causes: Cause[] = [];
  const name = meta.name;
  if (typeof name !== 'string' || name.length === 0) causes.push({ field: 'metadata.name', message: 'Required value: name or generateName is required' });
  else if (name.length > nameRule.max || !nameRule.re.test(name))
    causes.push({ field: 'metadata.name', message: `Invalid value: ${JSON.stringify(name)}: must be a ${nameRule.what}` });
  if (meta.namespace !== undefined && meta.namespace !== namespace)
    causes.push({ field: 'metadata.namespace', message: `Invalid value: ${JSON.stringify(meta.namespace)}: does not match the namespace of the request (${namespace})` });
  return [...causes, ...labelsCauses(meta.labels, 'metadata.labels')];
}

function affinityTermCauses(terms: unknown, field: string): Cause[] {
  const causes: Cause[] = [];
  (Array.isArray(terms) ? terms : []).forEach((term: Json, i) => {
    if (!term?.topologyKey) causes.push({ field: `${field}[${i}].topologyKey`, message: 'Required value: can not be empty' });
    else if (labelKeyProblem(term.topologyKey)) causes.push({ field: `${field}[${i}].topologyKey`, message: `Invalid value: ${JSON.stringify(term.topologyKey)}` });
    causes.push(...labelsCauses(term?.labelSelector?.matchLabels, `${field}[${i}].labelSelector.matchLabels`));
  });
  return causes;
}

export function podCauses(body: Json, namespace: string): Cause[] {
  const causes = schemaCauses(() => new Pod(body as never).validate());
  causes.push(...metaCauses(body, namespace, { re: DNS1123_SUBDOMAIN_RE, max: 253, what: 'lowercase RFC 1123 subdomain' }));
  const spec = body['spec'] ?? {};
  const names = new Set<string>();
  (spec.containers ?? []).forEach((c: Json, i: number) => {
    if (typeof c?.name === 'string' && (c.name.length > 63 || !DNS1123_LABEL_RE.test(c.name)))
      causes.push({ field: `spec.containers[${i}].name`, message: `Invalid value: ${JSON.stringify(c.name)}: must be a DNS-1123 label` });
    if (names.has(c?.name)) causes.push({ field: `spec.containers[${i}].name`, message: `Duplicate value: ${JSON.stringify(c.name)}` });
    names.add(c?.name);
    if (c?.image === undefined || c.image === '') causes.push({ field: `spec.containers[${i}].image`, message: 'Required value' });
  });
  if (spec.hostNetwork !== true && spec.dnsPolicy === 'ClusterFirstWithHostNet') {
    // Accepted by the API, but a sign the body is confused: netbench never sends it without hostNetwork.
    causes.push({ field: 'spec.dnsPolicy', message: 'ClusterFirstWithHostNet without hostNetwork [netbench stand-in rule]' });
  }
  causes.push(...sysctlCauses(spec));
  const affinity = spec.affinity ?? {};
  causes.push(
    ...affinityTermCauses(affinity.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, 'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution'),
  );
  causes.push(
    ...affinityTermCauses(affinity.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, 'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution'),
  );
  const terms = affinity.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  (terms ?? []).forEach((term: Json, i: number) => {
    (term.matchFields ?? []).forEach((req: Json, j: number) => {
      if (req.key !== 'metadata.name')
        causes.push({
          field: `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}].matchFields[${j}].key`,
          message: `Unsupported value: ${JSON.stringify(req.key)}: supported values: "metadata.name"`,
        });
      if (req.operator === 'In' && (req.values ?? []).length !== 1)
        causes.push({
          field: `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}].matchFields[${j}].values`,
          message: 'must have one element',
        });
    });
  });
  return causes;
}

const SYSCTL_NAME_RE = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;

/** `spec.securityContext.sysctls`: names, duplicates, and no net.* sysctl with the node's network (pkg/apis/core/validation). */
function sysctlCauses(spec: Json): Cause[] {
  const causes: Cause[] = [];
  const seen = new Set<string>();
  (spec.securityContext?.sysctls ?? []).forEach((s: Json, i: number) => {
    const field = `spec.securityContext.sysctls[${i}].name`;
    if (typeof s?.name !== 'string' || s.name.length > 253 || !SYSCTL_NAME_RE.test(s.name))
      causes.push({ field, message: `Invalid value: ${JSON.stringify(s?.name)}: must have at most 253 characters and match regex ${SYSCTL_NAME_RE.source}` });
    else if (seen.has(s.name)) causes.push({ field, message: `Duplicate value: ${JSON.stringify(s.name)}` });
    else if (spec.hostNetwork === true && s.name.startsWith('net.'))
      causes.push({ field, message: `Invalid value: ${JSON.stringify(s.name)}: may not be specified when 'hostNetwork' is true` });
    seen.add(s?.name);
  });
  return causes;
}

export function serviceCauses(body: Json, namespace: string): Cause[] {
  const causes = schemaCauses(() => new Service(body as never).validate());
  causes.push(...metaCauses(body, namespace, { re: DNS1035_LABEL_RE, max: 63, what: 'DNS-1035 label' }));
  const spec = body['spec'] ?? {};
  causes.push(...labelsCauses(spec.selector, 'spec.selector'));
  const ports: Json[] = spec.ports ?? [];
  if (ports.length === 0 && spec.type !== 'ExternalName' && spec.clusterIP !== 'None') causes.push({ field: 'spec.ports', message: 'Required value' });
  const seenNames = new Set<string>();
  const seenPorts = new Set<string>();
  ports.forEach((p, i) => {
    const f = `spec.ports[${i}]`;
    if (ports.length > 1 && !p.name) causes.push({ field: `${f}.name`, message: 'Required value' });
    if (p.name !== undefined) {
      if (p.name.length > 15 || !IANA_SVC_NAME_RE.test(p.name) || !/[a-z]/.test(p.name) || p.name.includes('--'))
        causes.push({
          field: `${f}.name`,
          message: `Invalid value: ${JSON.stringify(p.name)}: must be an IANA_SVC_NAME (at most 15 characters, a-z, 0-9 and -, at least one letter)`,
        });
      if (seenNames.has(p.name)) causes.push({ field: `${f}.name`, message: `Duplicate value: ${JSON.stringify(p.name)}` });
      seenNames.add(p.name);
    }
    if (!(p.port >= 1 && p.port <= 65_535)) causes.push({ field: `${f}.port`, message: `Invalid value: ${p.port}: must be between 1 and 65535, inclusive` });
    const key = `${p.port}/${p.protocol ?? 'TCP'}`;
    if (seenPorts.has(key)) causes.push({ field: `${f}`, message: `Duplicate value: ${JSON.stringify({ port: p.port, protocol: p.protocol ?? 'TCP' })}` });
    seenPorts.add(key);
    if (typeof p.targetPort === 'number' && !(p.targetPort >= 1 && p.targetPort <= 65_535))
      causes.push({ field: `${f}.targetPort`, message: `Invalid value: ${p.targetPort}: must be between 1 and 65535, inclusive` });
  });
  return causes;
}

export function deleteOptionsCauses(body: Json | undefined): Cause[] {
  if (body === undefined) return [];
  return schemaCauses(() => new DeleteOptions({ ...body } as never).validate());
}
