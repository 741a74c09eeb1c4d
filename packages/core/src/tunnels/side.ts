import type { ExecResult, Host } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import type { Endpoint } from './endpoint.js';
import type { ResolvedTunnel, TunnelImplementation } from './tunnel-schema.js';
import { writePrivateArgv } from './commands.js';

/** One end being set up: the host, its endpoint and the chosen data path. */
export interface Side {
  readonly host: Host;
  readonly ep: Endpoint;
  readonly tunnel: ResolvedTunnel;
  readonly implementation: TunnelImplementation;
  readonly signal: AbortSignal;
}

const STEP_TIMEOUT_MS = 30_000;

/** Run a command on the side's host; a non-zero exit is an error naming the tunnel, host and command. */
export async function must(side: Side, argv: readonly string[], stdin?: string): Promise<ExecResult> {
  const result = await side.host.exec(argv, { timeoutMs: STEP_TIMEOUT_MS, signal: side.signal, ...(stdin !== undefined ? { stdin } : {}) });
  if (result.code !== 0) {
    const said = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-3).join(' / ');
    throw new NetbenchError(`tunnel ${side.tunnel.name} on ${side.host.id}: ${argv[0]} ${describeArgs(argv)} failed (exit ${result.code ?? result.signal}): ${said}`);
  }
  return result;
}

// Secrets only ever travel on stdin; argv is safe to show, but keep messages short.
function describeArgs(argv: readonly string[]): string {
  return argv[0] === 'sh' ? '(script)' : argv.slice(1, 4).join(' ');
}

/** Write a private (0600) file on the side's host. */
export const writePrivate = (side: Side, path: string, content: string) => must(side, writePrivateArgv(path), content);

/** Retry `argv` until it exits 0: a handshake or a daemon starting up. */
export async function waitUntil(side: Side, argv: readonly string[], what: string, tries = 40, pauseMs = 250): Promise<void> {
  let last: ExecResult | undefined;
  for (let i = 0; i < tries; i += 1) {
    if (side.signal.aborted) throw new NetbenchError(`tunnel ${side.tunnel.name}: interrupted while waiting for ${what}`);
    last = await side.host.exec(argv, { timeoutMs: STEP_TIMEOUT_MS, signal: side.signal });
    if (last.code === 0) return;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  throw new NetbenchError(`tunnel ${side.tunnel.name} on ${side.host.id}: ${what} did not happen (${(last?.stderr ?? '').trim().split('\n').at(-1) ?? ''})`);
}

/** Last lines of an end's daemon log, for an error message (logs hold no secrets). */
export async function logTail(side: Side, file: string): Promise<string> {
  const result = await side.host.exec(['tail', '-n', '5', '--', file], { timeoutMs: 5000 }).catch(() => undefined);
  return result?.code === 0 ? result.stdout.trim().replaceAll('\n', ' / ') : '';
}
