import type { ExecResult, Host } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { writePrivateArgv } from './commands.js';
import type { Endpoint } from './endpoint.js';
import type { ResolvedTunnel, TunnelImplementation } from './tunnel-schema.js';

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

/** How long a handshake may take: seconds on an idle machine, far more on a loaded one (2 shared vCPUs). */
export const HANDSHAKE_BUDGET_MS = 60_000;

/**
 * Retry `argv` until it exits 0 (a handshake, a daemon starting up), for up
 * to `budgetMs`. A time budget, not a count of tries: a probe that fails at
 * once ("Network is unreachable" before the interface is up) would spend a
 * count in a few seconds on a machine too busy to start the daemon by then.
 */
export async function waitUntil(side: Side, argv: readonly string[], what: string, budgetMs = 20_000, pauseMs = 250): Promise<void> {
  let last: ExecResult | undefined;
  const deadline = Date.now() + budgetMs;
  do {
    if (side.signal.aborted) throw new NetbenchError(`tunnel ${side.tunnel.name}: interrupted while waiting for ${what}`);
    last = await side.host.exec(argv, { timeoutMs: STEP_TIMEOUT_MS, signal: side.signal });
    if (last.code === 0) return;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  } while (Date.now() < deadline);
  throw new NetbenchError(
    `tunnel ${side.tunnel.name} on ${side.host.id}: ${what} did not happen within ${Math.round(budgetMs / 1000)} s (${(last?.stderr ?? '').trim().split('\n').at(-1) ?? ''})`,
  );
}

/** Last lines of an end's daemon log, for an error message (logs hold no secrets). */
export async function logTail(side: Side, file: string): Promise<string> {
  const result = await side.host.exec(['tail', '-n', '5', '--', file], { timeoutMs: 15_000 }).catch(() => undefined);
  return result?.code === 0 ? result.stdout.trim().replaceAll('\n', ' / ') : '';
}
