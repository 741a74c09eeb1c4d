import type { Scalar } from '@netbench/plugin-api';
import { type ArithOp, type PyExpr, parsePython } from './parse.js';
import { PythonExprError } from './tokenize.js';

export { PythonExprError } from './tokenize.js';

type Type = 'string' | 'int' | 'double' | 'bool' | 'null' | 'list' | 'unknown';

/** Emitted CEL with its precedence (higher binds tighter) and static type. */
interface Cel {
  readonly text: string;
  readonly prec: number;
  readonly type: Type;
  /** For lists of known element type (`split` results, literal lists). */
  readonly element?: Type;
}

// CEL precedence, loosest first.
const TERNARY = 0;
const OR = 1;
const AND = 2;
const RELATION = 3;
const ADDITIVE = 4;
const MULTIPLICATIVE = 5;
const UNARY = 6;
const PRIMARY = 7;

export interface FilterNames {
  /** Matrix variables: they stay names in the CEL expression. */
  readonly variables: ReadonlyMap<string, readonly Scalar[]>;
  /** Other flags the filter may read (PKB evaluates filters over every flag of the config): inlined as literals. */
  readonly constants: ReadonlyMap<string, unknown>;
}

/**
 * Translate a PKB `flag_matrix_filters` expression (Python, evaluated by PKB
 * with `eval` over the cell's flags) into an equivalent CEL expression.
 * Nothing is evaluated; unsupported constructs throw `PythonExprError`
 * naming what to write instead.
 */
export function pythonToCel(source: string, names: FilterNames): string {
  return new Emitter(names).emit(parsePython(source)).text;
}

class Emitter {
  constructor(private readonly names: FilterNames) {}

  emit(node: PyExpr): Cel {
    switch (node.type) {
      case 'name':
        return this.name(node.name, node.at);
      case 'literal':
        return literal(node.value, node.integer);
      case 'list':
        return this.list(node.items);
      case 'logical': {
        const prec = node.op === 'and' ? AND : OR;
        const left = this.boolOperand(node.left, node.op);
        const right = this.boolOperand(node.right, node.op);
        return { text: `${wrap(left, prec)} ${node.op === 'and' ? '&&' : '||'} ${wrap(right, prec)}`, prec, type: 'bool' };
      }
      case 'not':
        return not(this.boolOperand(node.operand, 'not'));
      case 'compare':
        return this.compare(node);
      case 'arith':
        return this.arith(node.op, this.emit(node.left), this.emit(node.right), node.at);
      case 'negate': {
        const operand = this.emit(node.operand);
        return { text: `-${wrap(operand, UNARY)}`, prec: UNARY, type: operand.type };
      }
      case 'conditional': {
        const test = this.boolOperand(node.test, 'if');
        const body = this.emit(node.body);
        const orelse = this.emit(node.orelse);
        return { text: `${wrap(test, OR)} ? ${wrap(body, OR)} : ${wrap(orelse, TERNARY)}`, prec: TERNARY, type: body.type === orelse.type ? body.type : 'unknown' };
      }
      case 'call':
        return this.call(node);
      case 'attribute':
        throw new PythonExprError(`attribute '${node.name}' is only supported as a method call`, node.at);
      case 'index':
        return this.index(node);
      case 'slice':
        return this.slice(node);
    }
  }

  private name(name: string, at: number): Cel {
    const values = this.names.variables.get(name);
    if (values) return { text: name, prec: PRIMARY, type: typeOfValues(values) };
    if (this.names.constants.has(name)) return constant(this.names.constants.get(name), at);
    const known = [...this.names.variables.keys()];
    const hint = known.length > 0 ? ` (matrix flags: ${known.join(', ')})` : '';
    throw new PythonExprError(`name '${name}' is neither a flag of the matrix nor set in flags${hint}`, at);
  }

  private list(items: readonly PyExpr[]): Cel {
    const emitted = items.map((item) => this.emit(item));
    const types = new Set(emitted.map((e) => e.type));
    const element = types.size === 1 ? ([...types][0] as Type) : 'unknown';
    return { text: `[${emitted.map((e) => wrap(e, TERNARY + 1)).join(', ')}]`, prec: PRIMARY, type: 'list', element };
  }

  /** Python's `and`/`or`/`not` accept any value (truthiness); CEL needs booleans. */
  private boolOperand(node: PyExpr, op: string): Cel {
    const value = this.emit(node);
    if (value.type !== 'bool' && value.type !== 'unknown') {
      throw new PythonExprError(`'${op}' needs true/false here, not a ${value.type}: compare explicitly (e.g. x != "")`, node.at);
    }
    return value;
  }

  private compare(node: Extract<PyExpr, { type: 'compare' }>): Cel {
    const parts: Cel[] = [];
    let left = this.emit(node.first);
    for (const { op, right: rightNode } of node.rest) {
      const right = this.emit(rightNode);
      parts.push(this.comparePair(op, left, right, rightNode.at));
      left = right;
    }
    if (parts.length === 1) return parts[0] as Cel;
    // `a < b < c` is `a < b and b < c` in Python.
    return { text: parts.map((p) => wrap(p, AND)).join(' && '), prec: AND, type: 'bool' };
  }

  private comparePair(op: string, left: Cel, right: Cel, at: number): Cel {
    if (op === 'in' || op === 'not in') {
      let member: Cel;
      if (right.type === 'list') member = { text: `${wrap(left, ADDITIVE)} in ${wrap(right, ADDITIVE)}`, prec: RELATION, type: 'bool' };
      else if (right.type === 'string') member = { text: `${wrap(right, PRIMARY)}.contains(${left.text})`, prec: PRIMARY, type: 'bool' };
      else throw new PythonExprError(`'${op}' needs a list or a string on its right`, at);
      return op === 'in' ? member : not(member);
    }
    const celOp = op === 'is' ? '==' : op === 'is not' ? '!=' : op;
    return { text: `${wrap(left, ADDITIVE)} ${celOp} ${wrap(right, ADDITIVE)}`, prec: RELATION, type: 'bool' };
  }

  private arith(op: ArithOp, left: Cel, right: Cel, at: number): Cel {
    const prec = op === '+' || op === '-' ? ADDITIVE : MULTIPLICATIVE;
    if (op === '/') {
      // Python's `/` always divides as floats; CEL's int `/` truncates.
      return { text: `${asDouble(left)} / ${asDouble(right)}`, prec, type: 'double' };
    }
    const celOp = op === '//' ? '/' : op;
    if (op === '//' && (left.type === 'double' || right.type === 'double')) throw new PythonExprError("'//' on floats is not supported", at);
    const type: Type = left.type === right.type ? left.type : 'unknown';
    // Left-associative: the right operand of - and % needs parentheses at equal precedence.
    return { text: `${wrap(left, prec)} ${celOp} ${wrap(right, prec + 1)}`, prec, type };
  }

  private call(node: Extract<PyExpr, { type: 'call' }>): Cel {
    const { callee, args } = node;
    if (callee.type === 'name') {
      const conversions: Readonly<Record<string, [string, Type]>> = { len: ['size', 'int'], str: ['string', 'string'], int: ['int', 'int'], float: ['double', 'double'] };
      const conversion = conversions[callee.name];
      if (!conversion || args.length !== 1) throw new PythonExprError(`function '${callee.name}' is not supported (supported: len, str, int, float)`, callee.at);
      return { text: `${conversion[0]}(${this.emit(args[0] as PyExpr).text})`, prec: PRIMARY, type: conversion[1] };
    }
    if (callee.type !== 'attribute') throw new PythonExprError('only functions and string methods can be called', node.at);
    const object = this.emit(callee.object);
    const emitted = args.map((arg) => this.emit(arg));
    const target = wrap(object, PRIMARY);
    switch (callee.name) {
      case 'startswith':
      case 'endswith': {
        const method = callee.name === 'startswith' ? 'startsWith' : 'endsWith';
        const [prefix] = emitted;
        if (!prefix || emitted.length !== 1) throw new PythonExprError(`${callee.name}() takes one argument here`, node.at);
        // startswith(('a', 'b')) is true when any of them matches.
        if (prefix.type === 'list') {
          const items = (args[0] as Extract<PyExpr, { type: 'list' }>).items.map((item) => `${target}.${method}(${this.emit(item).text})`);
          return { text: items.length === 1 ? (items[0] as string) : items.join(' || '), prec: items.length === 1 ? PRIMARY : OR, type: 'bool' };
        }
        return { text: `${target}.${method}(${prefix.text})`, prec: PRIMARY, type: 'bool' };
      }
      case 'lower':
      case 'upper':
      case 'strip':
        if (emitted.length > 0) throw new PythonExprError(`${callee.name}() with arguments is not supported`, node.at);
        return { text: `${target}.${callee.name === 'strip' ? 'trim' : `${callee.name}Ascii`}()`, prec: PRIMARY, type: 'string' };
      case 'find':
        if (emitted.length !== 1) throw new PythonExprError('find() takes one argument here', node.at);
        return { text: `${target}.indexOf(${(emitted[0] as Cel).text})`, prec: PRIMARY, type: 'int' };
      case 'split': {
        const [sep, max] = emitted;
        if (!sep) throw new PythonExprError('split() needs a separator here (whitespace splitting is not supported)', node.at);
        // Python's maxsplit counts splits; CEL's limit counts parts.
        const limit = max ? `, ${max.text} + 1` : '';
        return { text: `${target}.split(${sep.text}${limit})`, prec: PRIMARY, type: 'list', element: 'string' };
      }
      default:
        throw new PythonExprError(`method '${callee.name}' is not supported (supported: startswith, endswith, lower, upper, strip, find, split)`, callee.at);
    }
  }

  private index(node: Extract<PyExpr, { type: 'index' }>): Cel {
    const object = this.emit(node.object);
    const index = this.bound(node.index, object);
    if (object.type === 'list') return { text: `${wrap(object, PRIMARY)}[${index}]`, prec: PRIMARY, type: object.element ?? 'unknown' };
    if (object.type === 'string') return { text: `${wrap(object, PRIMARY)}.substring(${index}, ${index} + 1)`, prec: PRIMARY, type: 'string' };
    throw new PythonExprError('only strings and lists can be indexed', node.at);
  }

  private slice(node: Extract<PyExpr, { type: 'slice' }>): Cel {
    const object = this.emit(node.object);
    if (object.type !== 'string') throw new PythonExprError('only strings can be sliced', node.at);
    const target = wrap(object, PRIMARY);
    const lower = node.lower ? this.bound(node.lower, object) : '0';
    const text = node.upper ? `${target}.substring(${lower}, ${this.bound(node.upper, object)})` : `${target}.substring(${lower})`;
    return { text, prec: PRIMARY, type: 'string' };
  }

  /** An index or slice bound; a negative literal counts from the end, as in Python. */
  private bound(node: PyExpr, object: Cel): string {
    const value = node.type === 'negate' && node.operand.type === 'literal' ? -Number(node.operand.value) : node.type === 'literal' ? node.value : undefined;
    if (typeof value === 'number' && Number.isInteger(value)) {
      if (value >= 0) return String(value);
      const size = object.type === 'list' ? `size(${object.text})` : `${wrap(object, PRIMARY)}.size()`;
      return `${size} - ${-value}`;
    }
    const emitted = this.emit(node);
    if (emitted.type !== 'int' && emitted.type !== 'unknown') throw new PythonExprError('an index must be an integer', node.at);
    return wrap(emitted, ADDITIVE + 1);
  }
}

function wrap(cel: Cel, min: number): string {
  return cel.prec >= min ? cel.text : `(${cel.text})`;
}

function not(value: Cel): Cel {
  return { text: `!${wrap(value, UNARY)}`, prec: UNARY, type: 'bool' };
}

function asDouble(value: Cel): string {
  return value.type === 'double' ? wrap(value, MULTIPLICATIVE) : `double(${value.text})`;
}

function literal(value: string | number | boolean | null, integer: boolean): Cel {
  if (value === null) return { text: 'null', prec: PRIMARY, type: 'null' };
  if (typeof value === 'string') return { text: JSON.stringify(value), prec: PRIMARY, type: 'string' };
  if (typeof value === 'boolean') return { text: String(value), prec: PRIMARY, type: 'bool' };
  if (integer) return { text: String(value), prec: PRIMARY, type: 'int' };
  const text = String(value);
  return { text: /[.eE]/.test(text) ? text : `${text}.0`, prec: PRIMARY, type: 'double' };
}

/** A flag value inlined into the expression. */
function constant(value: unknown, at: number): Cel {
  if (value === null || value === undefined) return literal(null, false);
  if (typeof value === 'string' || typeof value === 'boolean') return literal(value, false);
  if (typeof value === 'number') return literal(value, Number.isInteger(value));
  if (Array.isArray(value)) {
    const items = value.map((item) => constant(item, at));
    const types = new Set(items.map((i) => i.type));
    return { text: `[${items.map((i) => i.text).join(', ')}]`, prec: PRIMARY, type: 'list', element: types.size === 1 ? ([...types][0] as Type) : 'unknown' };
  }
  throw new PythonExprError('a flag holding a mapping cannot be used in a filter', at);
}

function typeOfValues(values: readonly Scalar[]): Type {
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => typeof v === 'boolean')) return 'bool';
  if (values.every((v) => typeof v === 'number' && Number.isInteger(v))) return 'int';
  if (values.every((v) => typeof v === 'number')) return 'double';
  return 'unknown';
}
