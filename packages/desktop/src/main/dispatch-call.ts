import { SpecError } from '@netbench/core';
import { NetbenchError } from '@netbench/plugin-api';
import type { BridgeApi, BridgeEnvelope } from '../shared/bridge-types.js';
import { bridgeSchemas, isBridgeMethod } from '../shared/ipc-schemas.js';

/**
 * One call from the renderer, over IPC or HTTP: the method must exist and
 * its argument must pass the method's zod schema before any main-process
 * code runs. Errors come back as data (name, message, spec issues), never
 * as a rejected promise, so both channels carry them alike.
 */
export async function dispatchCall(api: BridgeApi, method: unknown, arg: unknown): Promise<BridgeEnvelope<unknown>> {
  if (!isBridgeMethod(method)) return failure('BridgeError', `unknown bridge method: ${String(method).slice(0, 80)}`);
  const parsed = bridgeSchemas[method].safeParse(arg ?? {});
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(argument)'}: ${i.message}`).join('; ');
    return failure('ValidationError', `invalid argument for ${method}: ${detail}`);
  }
  try {
    const call = api[method] as (a: unknown) => Promise<unknown>;
    return { ok: true, value: await call(parsed.data) };
  } catch (error) {
    if (error instanceof SpecError) return { ok: false, error: { name: error.name, message: error.message, issues: error.issues } };
    if (error instanceof NetbenchError) return failure(error.name, error.message);
    // Unexpected errors keep their message (the user needs it) but not their stack.
    return failure('Error', error instanceof Error ? error.message : String(error));
  }
}

function failure(name: string, message: string): BridgeEnvelope<never> {
  return { ok: false, error: { name, message } };
}
