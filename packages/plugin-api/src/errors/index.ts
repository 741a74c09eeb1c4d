// Errors plugins throw and the engine reports. Recognised by a brand (a
// global symbol listing the error's kinds), not by `instanceof` against one
// copy of the class: a plugin that bundles its own copy of this package
// still throws errors the engine recognises. `instanceof` works too, because
// each class answers it from the brand.

/** Brand carried by every netbench error: the kinds it is, most general first. */
export const ERROR_BRAND: unique symbol = Symbol.for('netbench.error') as never;

/** What an error is; an error is every kind of its class and the classes above it. */
export type ErrorKind = 'netbench' | 'retryable' | 'quota' | 'capacity' | 'tool-missing' | 'parse' | 'timeout' | 'unsupported' | 'plugin';

/** Whether `error` carries the netbench brand with this kind (any copy of this package). */
export function hasErrorKind(error: unknown, kind: ErrorKind): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const kinds = (error as { [ERROR_BRAND]?: unknown })[ERROR_BRAND];
  return Array.isArray(kinds) && kinds.includes(kind);
}

/** Whether `error` is an error netbench reports on purpose (shown without a stack). */
export function isNetbenchError(error: unknown): error is NetbenchError {
  return hasErrorKind(error, 'netbench');
}

/** Whether the engine should retry: a retryable error, or a plugin error caused by one. */
export function isRetryable(error: unknown): boolean {
  return hasErrorKind(error, 'retryable') || (hasErrorKind(error, 'plugin') && isRetryable((error as Error).cause));
}

/** The suggested exit code of a netbench error, or `fallback`. */
export function errorExitCode(error: unknown, fallback = 1): number {
  const code = isNetbenchError(error) ? (error as { exitCode?: unknown }).exitCode : undefined;
  return typeof code === 'number' ? code : fallback;
}

// The kind a class answers `instanceof` for; a subclass without its own (e.g. core's SpecError) falls back to the prototype chain.
const CLASS_KIND: unique symbol = Symbol('netbench.error-class-kind') as never;

/** Base class of every error netbench reports on purpose (shown without a stack). */
export class NetbenchError extends Error {
  static readonly [CLASS_KIND]: ErrorKind = 'netbench';
  static override [Symbol.hasInstance](this: object, value: unknown): boolean {
    const kind = Object.hasOwn(this, CLASS_KIND) ? (this as { [CLASS_KIND]: ErrorKind })[CLASS_KIND] : undefined;
    return kind ? hasErrorKind(value, kind) : Function.prototype[Symbol.hasInstance].call(this, value);
  }
  override readonly name: string = 'NetbenchError';
  /** Suggested process exit code. */
  readonly exitCode: number = 1;
  readonly [ERROR_BRAND]: readonly ErrorKind[] = ['netbench'];
}

/** A transient failure; the engine retries the trial up to `options.retries` times. */
export class RetryableError extends NetbenchError {
  static override readonly [CLASS_KIND]: ErrorKind = 'retryable';
  override readonly name: string = 'RetryableError';
  override readonly [ERROR_BRAND]: readonly ErrorKind[] = ['netbench', 'retryable'];
}

/** The cloud refused for lack of quota. Retryable elsewhere (another zone). */
export class QuotaError extends RetryableError {
  static override readonly [CLASS_KIND]: ErrorKind = 'quota';
  override readonly name: string = 'QuotaError';
  override readonly [ERROR_BRAND]: readonly ErrorKind[] = ['netbench', 'retryable', 'quota'];
}

/** The zone has no capacity for the machine type right now. */
export class CapacityError extends RetryableError {
  static override readonly [CLASS_KIND]: ErrorKind = 'capacity';
  override readonly name: string = 'CapacityError';
  override readonly [ERROR_BRAND]: readonly ErrorKind[] = ['netbench', 'retryable', 'capacity'];
}

/** A tool binary is not on the host. */
export class ToolMissingError extends NetbenchError {
  static override readonly [CLASS_KIND]: ErrorKind = 'tool-missing';
  override readonly name: string = 'ToolMissingError';
  override readonly [ERROR_BRAND]: readonly ErrorKind[] = ['netbench', 'tool-missing'];
  constructor(
    readonly tool: string,
    readonly host: string,
    detail?: string,
  ) {
    super(`${tool} is not installed on host ${host}${detail ? `: ${detail}` : ''}`);
  }
}

/** A tool's output could not be read. Names the source and line. */
export class ParseError extends NetbenchError {
  static override readonly [CLASS_KIND]: ErrorKind = 'parse';
  override readonly name: string = 'ParseError';
  override readonly [ERROR_BRAND]: readonly ErrorKind[] = ['netbench', 'parse'];
  constructor(
    message: string,
    readonly source?: string,
    readonly line?: number,
  ) {
    super(`${source ?? '<input>'}${line !== undefined ? `:${line}` : ''}: ${message}`);
  }
}

/** A command or plugin call took longer than allowed. */
export class TimeoutError extends NetbenchError {
  static override readonly [CLASS_KIND]: ErrorKind = 'timeout';
  override readonly name: string = 'TimeoutError';
  override readonly [ERROR_BRAND]: readonly ErrorKind[] = ['netbench', 'timeout'];
}

/** The machine lacks something the spec needs (a privilege, a kernel feature). */
export class UnsupportedError extends NetbenchError {
  static override readonly [CLASS_KIND]: ErrorKind = 'unsupported';
  override readonly name: string = 'UnsupportedError';
  override readonly [ERROR_BRAND]: readonly ErrorKind[] = ['netbench', 'unsupported'];
}

/** A plugin hook failed; wraps the plugin's own error as `cause`. */
export class PluginError extends NetbenchError {
  static override readonly [CLASS_KIND]: ErrorKind = 'plugin';
  override readonly name: string = 'PluginError';
  override readonly [ERROR_BRAND]: readonly ErrorKind[] = ['netbench', 'plugin'];
  constructor(
    readonly plugin: string,
    readonly hook: string,
    cause: unknown,
  ) {
    super(`[plugin ${plugin}] ${hook}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
