import { PythonExprError, type Token, tokenize } from './tokenize.js';

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in' | 'is' | 'is not';
export type ArithOp = '+' | '-' | '*' | '/' | '//' | '%';

/** The parsed expression. `at` is the 0-based offset of the node in the source, for messages. */
export type PyExpr =
  | { readonly type: 'name'; readonly name: string; readonly at: number }
  | { readonly type: 'literal'; readonly value: string | number | boolean | null; readonly integer: boolean; readonly at: number }
  | { readonly type: 'list'; readonly items: readonly PyExpr[]; readonly at: number }
  | { readonly type: 'logical'; readonly op: 'and' | 'or'; readonly left: PyExpr; readonly right: PyExpr; readonly at: number }
  | { readonly type: 'not'; readonly operand: PyExpr; readonly at: number }
  | { readonly type: 'compare'; readonly first: PyExpr; readonly rest: readonly { readonly op: CompareOp; readonly right: PyExpr }[]; readonly at: number }
  | { readonly type: 'arith'; readonly op: ArithOp; readonly left: PyExpr; readonly right: PyExpr; readonly at: number }
  | { readonly type: 'negate'; readonly operand: PyExpr; readonly at: number }
  | { readonly type: 'call'; readonly callee: PyExpr; readonly args: readonly PyExpr[]; readonly at: number }
  | { readonly type: 'attribute'; readonly object: PyExpr; readonly name: string; readonly at: number }
  | { readonly type: 'index'; readonly object: PyExpr; readonly index: PyExpr; readonly at: number }
  | { readonly type: 'slice'; readonly object: PyExpr; readonly lower?: PyExpr; readonly upper?: PyExpr; readonly at: number }
  | { readonly type: 'conditional'; readonly test: PyExpr; readonly body: PyExpr; readonly orelse: PyExpr; readonly at: number };

/** Deeper nesting than this is refused (a spec error), so a hostile filter cannot overflow the stack. */
export const MAX_PYTHON_NESTING = 100;
/** Longer filters than this are refused: no real PKB filter comes near it. */
export const MAX_PYTHON_SOURCE = 10_000;

const COMPARE_OPS = new Set(['==', '!=', '<', '<=', '>', '>=']);
// Python keywords that have no place in an expression PKB can evaluate.
const STATEMENT_KEYWORDS = new Set(['lambda', 'import', 'for', 'while', 'def', 'class', 'yield', 'await', 'async', 'del', 'global', 'with']);

/**
 * Parse a Python expression (the subset a `flag_matrix_filters` entry uses:
 * names, literals, lists/tuples, comparisons incl. chains, `in`, `not`,
 * `and`/`or`, arithmetic, calls, attributes, indexing, slicing, `x if c else y`).
 * Never evaluates anything. Throws `PythonExprError` with an offset.
 */
export function parsePython(source: string): PyExpr {
  if (source.length > MAX_PYTHON_SOURCE) throw new PythonExprError(`the filter is ${source.length} characters long; the limit is ${MAX_PYTHON_SOURCE}`, 0);
  const parser = new Parser(tokenize(source));
  const expr = parser.expression();
  parser.expectEnd();
  return expr;
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.pos++;
    return token;
  }

  private isOp(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === 'op' && token.text === text;
  }

  private isKeyword(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === 'name' && token.text === text;
  }

  private expectOp(text: string): Token {
    const token = this.next();
    if (token.kind !== 'op' || token.text !== text) throw new PythonExprError(`expected '${text}'${describe(token)}`, token.at);
    return token;
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind !== 'end') throw new PythonExprError(`unexpected ${describe(token).slice(6) || 'text'} after the expression`, token.at);
  }

  /** Every recursive rule goes through here: nesting is bounded, whatever the input. */
  private nested<T>(at: number, rule: () => T): T {
    if (++this.depth > MAX_PYTHON_NESTING) throw new PythonExprError(`the filter nests deeper than ${MAX_PYTHON_NESTING} levels`, at);
    try {
      return rule();
    } finally {
      this.depth--;
    }
  }

  expression(): PyExpr {
    return this.nested(this.peek().at, () => this.conditional());
  }

  private conditional(): PyExpr {
    const body = this.or();
    if (!this.isKeyword('if')) return body;
    this.next();
    const test = this.or();
    if (!this.isKeyword('else')) throw new PythonExprError(`expected 'else'${describe(this.peek())}`, this.peek().at);
    this.next();
    const orelse = this.expression();
    return { type: 'conditional', test, body, orelse, at: body.at };
  }

  private or(): PyExpr {
    let left = this.and();
    while (this.isKeyword('or')) {
      this.next();
      left = { type: 'logical', op: 'or', left, right: this.and(), at: left.at };
    }
    return left;
  }

  private and(): PyExpr {
    let left = this.not();
    while (this.isKeyword('and')) {
      this.next();
      left = { type: 'logical', op: 'and', left, right: this.not(), at: left.at };
    }
    return left;
  }

  private not(): PyExpr {
    if (this.isKeyword('not')) {
      const token = this.next();
      return { type: 'not', operand: this.nested(token.at, () => this.not()), at: token.at };
    }
    return this.comparison();
  }

  private comparison(): PyExpr {
    const first = this.arith();
    const rest: { op: CompareOp; right: PyExpr }[] = [];
    for (;;) {
      const op = this.compareOp();
      if (!op) break;
      rest.push({ op, right: this.arith() });
    }
    return rest.length === 0 ? first : { type: 'compare', first, rest, at: first.at };
  }

  private compareOp(): CompareOp | undefined {
    const token = this.peek();
    if (token.kind === 'op' && COMPARE_OPS.has(token.text)) {
      this.next();
      return token.text as CompareOp;
    }
    if (this.isKeyword('in')) {
      this.next();
      return 'in';
    }
    if (this.isKeyword('not') && this.isKeyword('in', 1)) {
      this.next();
      this.next();
      return 'not in';
    }
    if (this.isKeyword('is')) {
      this.next();
      if (this.isKeyword('not')) {
        this.next();
        return 'is not';
      }
      return 'is';
    }
    return undefined;
  }

  private arith(): PyExpr {
    let left = this.term();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.next().text as ArithOp;
      left = { type: 'arith', op, left, right: this.term(), at: left.at };
    }
    return left;
  }

  private term(): PyExpr {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('//') || this.isOp('%')) {
      const op = this.next().text as ArithOp;
      left = { type: 'arith', op, left, right: this.unary(), at: left.at };
    }
    return left;
  }

  private unary(): PyExpr {
    if (this.isOp('-')) {
      const token = this.next();
      return { type: 'negate', operand: this.nested(token.at, () => this.unary()), at: token.at };
    }
    if (this.isOp('+')) {
      const token = this.next();
      return this.nested(token.at, () => this.unary());
    }
    if (this.isOp('**')) throw new PythonExprError("'**' is not supported", this.peek().at);
    return this.postfix();
  }

  private postfix(): PyExpr {
    let expr = this.atom();
    for (;;) {
      if (this.isOp('.')) {
        this.next();
        const name = this.next();
        if (name.kind !== 'name') throw new PythonExprError(`expected an attribute name${describe(name)}`, name.at);
        expr = { type: 'attribute', object: expr, name: name.text, at: name.at };
      } else if (this.isOp('(')) {
        const open = this.next();
        const args = this.items(')');
        expr = { type: 'call', callee: expr, args, at: open.at };
      } else if (this.isOp('[')) {
        expr = this.subscript(expr);
      } else {
        return expr;
      }
    }
  }

  private subscript(object: PyExpr): PyExpr {
    const open = this.expectOp('[');
    const lower = this.isOp(':') ? undefined : this.expression();
    if (this.isOp(']')) {
      this.next();
      if (!lower) throw new PythonExprError('empty subscript', open.at);
      return { type: 'index', object, index: lower, at: open.at };
    }
    this.expectOp(':');
    if (this.isOp(':')) throw new PythonExprError('slices with a step are not supported', this.peek().at);
    const upper = this.isOp(']') ? undefined : this.expression();
    if (this.isOp(':')) throw new PythonExprError('slices with a step are not supported', this.peek().at);
    this.expectOp(']');
    return { type: 'slice', object, ...(lower ? { lower } : {}), ...(upper ? { upper } : {}), at: open.at };
  }

  /** Comma-separated expressions up to `close` (a trailing comma is allowed, as in Python). */
  private items(close: string): PyExpr[] {
    const items: PyExpr[] = [];
    while (!this.isOp(close)) {
      items.push(this.expression());
      if (!this.isOp(',')) break;
      this.next();
    }
    this.expectOp(close);
    return items;
  }

  private atom(): PyExpr {
    const token = this.next();
    switch (token.kind) {
      case 'number':
        return { type: 'literal', value: token.value, integer: token.integer, at: token.at };
      case 'string': {
        // Adjacent string literals concatenate, as in Python.
        let value = token.value;
        while (this.peek().kind === 'string') value += (this.next() as Extract<Token, { kind: 'string' }>).value;
        return { type: 'literal', value, integer: false, at: token.at };
      }
      case 'name':
        return this.nameAtom(token);
      case 'op':
        if (token.text === '(') {
          if (this.isOp(')')) {
            this.next();
            return { type: 'list', items: [], at: token.at };
          }
          const first = this.expression();
          if (this.isOp(')')) {
            this.next();
            return first;
          }
          // A tuple: (a, b, ...) reads like a list for `in` tests.
          this.expectOp(',');
          const rest = this.isOp(')') ? (this.next(), []) : this.items(')');
          return { type: 'list', items: [first, ...rest], at: token.at };
        }
        if (token.text === '[') return { type: 'list', items: this.items(']'), at: token.at };
        throw new PythonExprError(`unexpected '${token.text}'`, token.at);
      case 'end':
        throw new PythonExprError('the expression ends too early', token.at);
    }
  }

  private nameAtom(token: Extract<Token, { kind: 'name' }>): PyExpr {
    switch (token.text) {
      case 'True':
        return { type: 'literal', value: true, integer: false, at: token.at };
      case 'False':
        return { type: 'literal', value: false, integer: false, at: token.at };
      case 'None':
        return { type: 'literal', value: null, integer: false, at: token.at };
      case 'and':
      case 'or':
      case 'in':
      case 'is':
      case 'if':
      case 'else':
        throw new PythonExprError(`unexpected '${token.text}'`, token.at);
      default:
        if (STATEMENT_KEYWORDS.has(token.text)) throw new PythonExprError(`'${token.text}' is not supported in a filter`, token.at);
        return { type: 'name', name: token.text, at: token.at };
    }
  }
}

function describe(token: Token): string {
  if (token.kind === 'end') return ', found the end';
  return `, found '${token.text}'`;
}
