/** Base class of every error netbench reports on purpose (shown without a stack). */
export class NetbenchError extends Error {
  override readonly name: string = 'NetbenchError';
  /** Suggested process exit code. */
  readonly exitCode: number = 1;
}

/** A transient failure; the engine retries the trial up to `options.retries` times. */
export class RetryableError extends NetbenchError {
  override readonly name: string = 'RetryableError';
}

/** The cloud refused for lack of quota. Retryable elsewhere (another zone). */
export class QuotaError extends RetryableError {
  override readonly name: string = 'QuotaError';
}

/** The zone has no capacity for the machine type right now. */
export class CapacityError extends RetryableError {
  override readonly name: string = 'CapacityError';
}

/** A tool binary is not on the host. */
export class ToolMissingError extends NetbenchError {
  override readonly name: string = 'ToolMissingError';
  constructor(readonly tool: string, readonly host: string, detail?: string) {
    super(`${tool} is not installed on host ${host}${detail ? `: ${detail}` : ''}`);
  }
}

/** A tool's output could not be read. Names the source and line. */
export class ParseError extends NetbenchError {
  override readonly name: string = 'ParseError';
  constructor(message: string, readonly source?: string, readonly line?: number) {
    super(`${source ?? '<input>'}${line !== undefined ? `:${line}` : ''}: ${message}`);
  }
}

/** A command or plugin call took longer than allowed. */
export class TimeoutError extends NetbenchError {
  override readonly name: string = 'TimeoutError';
}

/** The machine lacks something the spec needs (a privilege, a kernel feature). */
export class UnsupportedError extends NetbenchError {
  override readonly name: string = 'UnsupportedError';
}

/** A plugin hook failed; wraps the plugin's own error as `cause`. */
export class PluginError extends NetbenchError {
  override readonly name: string = 'PluginError';
  constructor(readonly plugin: string, readonly hook: string, cause: unknown) {
    super(`[plugin ${plugin}] ${hook}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export function isRetryable(error: unknown): boolean {
  return error instanceof RetryableError || (error instanceof PluginError && isRetryable(error.cause));
}
