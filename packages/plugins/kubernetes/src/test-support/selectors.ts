/** The query parts the stand-in reads: every parameter, `metadata.name=` field selectors, equality label selectors. */

type Json = Record<string, any>;

export function queryOf(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

export function fieldName(selector: string | null): string | undefined {
  const m = /^metadata\.name=(.+)$/.exec(selector ?? '');
  return m?.[1];
}

/** `labelSelector` with `k=v` and bare `k` (exists) requirements, comma-separated, as the API's equality-based selectors. */
export function selects(q: URLSearchParams, o: Json): boolean {
  const labels: Record<string, string> = o['metadata'].labels ?? {};
  const selector = q.get('labelSelector');
  if (selector) {
    for (const req of selector.split(',')) {
      const [k, v] = req.split('=');
      if (v === undefined ? labels[k!] === undefined : labels[k!] !== v) return false;
    }
  }
  const name = fieldName(q.get('fieldSelector'));
  return name === undefined || o['metadata'].name === name;
}
