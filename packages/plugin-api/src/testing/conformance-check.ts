/** One conformance check: a name for the test report and the check itself (throws on failure). */
export interface ConformanceCheck {
  readonly name: string;
  run(): Promise<void>;
}

/** Why a plugin does not conform. Thrown by a check's `run`. */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
}

export function fail(message: string, cause?: unknown): never {
  throw new ConformanceError(message, cause === undefined ? undefined : { cause });
}

export function check(name: string, run: () => Promise<void> | void): ConformanceCheck {
  return { name, run: async () => run() };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
