/**
 * How deep a YAML text nests, estimated in one pass over its characters with
 * no recursion, so that a document nested thousands deep is refused before
 * the YAML library's recursive composer runs out of stack (V8's "Maximum
 * call stack size exceeded" at ~900 levels). Flow collections count each
 * open `[` / `{` (outside quotes and comments); block collections count the
 * indentation levels open on a line, plus `- ` items written on one line.
 * Block scalars (`|`, `>`) are skipped. It may over-count odd layouts (a plain
 * scalar continued on ever deeper lines), so callers give it a bound well
 * above the spec's real nesting limit; the exact limit is checked on the data.
 */
export interface DeepPoint {
  readonly depth: number;
  /** Offset in the text where the bound was passed. */
  readonly offset: number;
}

const BLOCK_SCALAR_RE = /(?:^|[\s:-])[|>][+-]?\d?[+-]?\s*(?:#.*)?$/;

/** The first place where the nesting passes `bound`, or undefined. */
export function deeperThan(text: string, bound: number): DeepPoint | undefined {
  const indents: number[] = [];
  let flow = 0;
  let offset = 0;
  let scalarIndent: number | undefined;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const indent = line.length - line.trimStart().length;
    const content = line.trim();
    if (scalarIndent !== undefined) {
      if (content === '' || indent > scalarIndent) continue;
      scalarIndent = undefined;
    }
    if (content === '' || content.startsWith('#')) continue;
    if (flow === 0) {
      while (indents.length > 0 && indents.at(-1)! >= indent) indents.pop();
      indents.push(indent);
    }
    let items = 0;
    for (let i = indent; line.startsWith('- ', i) || line.startsWith('-\t', i); i += 2) items += 1;
    let quote: string | undefined;
    for (let i = indent; i < line.length; i += 1) {
      const c = line[i]!;
      if (quote) {
        if (c === '\\' && quote === '"') i += 1;
        else if (c === quote) quote = undefined;
        continue;
      }
      if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) break;
      if (c === '"' || (c === "'" && (i === 0 || /[\s[{,:]/.test(line[i - 1]!)))) quote = c;
      else if (c === '[' || c === '{') flow += 1;
      else if ((c === ']' || c === '}') && flow > 0) flow -= 1;
      if (indents.length + items + flow > bound) return { depth: indents.length + items + flow, offset: start + i };
    }
    if (indents.length + items + flow > bound) return { depth: indents.length + items + flow, offset: start + indent };
    if (flow === 0 && BLOCK_SCALAR_RE.test(content)) scalarIndent = indent;
  }
  return undefined;
}
