type Json = Record<string, unknown>;

/** What a `${var}` looks like to an editor. */
export const PLACEHOLDER_JSON_SCHEMA: Json = {
  type: 'string',
  pattern: '^.*\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}.*$',
  description: 'A matrix variable, substituted per cell',
};

/**
 * Let every scalar of a plugin block's JSON Schema also be a `${var}`
 * string, as the loader allows; otherwise editors would flag valid specs.
 */
export function allowPlaceholders(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const node = schema as Json;
  const out: Json = { ...node };
  if (isObject(node.properties)) {
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, allowPlaceholders(v)]));
  }
  if (isObject(node.additionalProperties)) out.additionalProperties = allowPlaceholders(node.additionalProperties);
  if (isObject(node.items)) out.items = allowPlaceholders(node.items);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(node[key])) out[key] = (node[key] as unknown[]).map(allowPlaceholders);
  }
  if (isScalarSchema(node)) {
    const { default: fallback, description, ...rest } = out;
    return {
      ...(description !== undefined ? { description } : {}),
      ...(fallback !== undefined ? { default: fallback } : {}),
      anyOf: [rest, PLACEHOLDER_JSON_SCHEMA],
    };
  }
  return out;
}

function isScalarSchema(node: Json): boolean {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (node.enum !== undefined || node.const !== undefined) return true;
  return types.some((t) => t === 'number' || t === 'integer' || t === 'boolean' || t === 'string');
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
