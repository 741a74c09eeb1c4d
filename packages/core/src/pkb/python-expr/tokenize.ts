/** A token of the Python expression subset PKB's `flag_matrix_filters` use. */
export type Token =
  | { readonly kind: 'name'; readonly text: string; readonly at: number }
  | { readonly kind: 'number'; readonly text: string; readonly value: number; readonly integer: boolean; readonly at: number }
  | { readonly kind: 'string'; readonly text: string; readonly value: string; readonly at: number }
  | { readonly kind: 'op'; readonly text: string; readonly at: number }
  | { readonly kind: 'end'; readonly text: ''; readonly at: number };

/** Thrown for anything outside the supported subset; `at` is a 0-based offset into the expression. */
export class PythonExprError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

const NAME_RE = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER_RE = /(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?/y;
const WHITESPACE_RE = /\s+/y;
// Longest first, so `<=` is not read as `<` then `=`.
const OPERATORS = ['//', '**', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '(', ')', '[', ']', ',', '.', ':'];
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    WHITESPACE_RE.lastIndex = i;
    if (WHITESPACE_RE.exec(source)) {
      i = WHITESPACE_RE.lastIndex;
      continue;
    }
    const ch = source[i] as string;
    if (ch === '"' || ch === "'") {
      const { value, end } = readString(source, i);
      tokens.push({ kind: 'string', text: source.slice(i, end), value, at: i });
      i = end;
      continue;
    }
    NUMBER_RE.lastIndex = i;
    const number = /[0-9.]/.test(ch) ? NUMBER_RE.exec(source) : null;
    if (number && number[0] !== '.') {
      const text = number[0];
      tokens.push({ kind: 'number', text, value: Number(text), integer: /^\d+$/.test(text), at: i });
      i = NUMBER_RE.lastIndex;
      continue;
    }
    NAME_RE.lastIndex = i;
    const name = NAME_RE.exec(source);
    if (name) {
      tokens.push({ kind: 'name', text: name[0], at: i });
      i = NAME_RE.lastIndex;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op) throw new PythonExprError(`unexpected character '${ch}'`, i);
    tokens.push({ kind: 'op', text: op, at: i });
    i += op.length;
  }
  tokens.push({ kind: 'end', text: '', at: source.length });
  return tokens;
}

function readString(source: string, start: number): { value: string; end: number } {
  const quote = source[start] as string;
  let value = '';
  let i = start + 1;
  while (i < source.length) {
    const ch = source[i] as string;
    if (ch === quote) return { value, end: i + 1 };
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined || !(next in ESCAPES)) throw new PythonExprError(`unsupported escape '\\${next ?? ''}' in a string`, i);
      value += ESCAPES[next];
      i += 2;
      continue;
    }
    value += ch;
    i++;
  }
  throw new PythonExprError('unterminated string', start);
}
