import type { Host } from '@netbench/plugin-api';
import type { CpuRead } from './cpu-series.js';
import { parseProcStat } from './proc-stat.js';

/**
 * The per-interval read: `/proc/stat`'s `cpu` lines only (sed stops at the
 * first other line, before the long `intr` line), one process, no shell.
 */
export const CPU_READ_ARGV: readonly string[] = ['sed', '-n', '/^cpu/!q;p', '/proc/stat'];

const READ_TIMEOUT_MS = 5_000;

/** What a ticker read until it was stopped. */
export interface TickerResult {
  readonly reads: readonly CpuRead[];
  /** Ticks left out because the previous read was still running. */
  readonly skipped: number;
  readonly failed: number;
  readonly firstError?: string;
}

/**
 * Reads one host's per-CPU times now and every `intervalSeconds` until
 * `stop` (or `signal` aborts): never more than one read in flight — a tick
 * that finds the previous read still running is skipped. A failed read is
 * counted, never thrown.
 */
export function startCpuTicker(host: Host, intervalSeconds: number, signal: AbortSignal) {
  const reads: CpuRead[] = [];
  let skipped = 0;
  let failed = 0;
  let firstError: string | undefined;
  let inFlight: Promise<void> | undefined;
  const tick = () => {
    if (inFlight) {
      skipped += 1;
      return;
    }
    inFlight = host
      .exec(CPU_READ_ARGV, { timeoutMs: READ_TIMEOUT_MS, signal })
      .then((result) => {
        const cpus = parseProcStat(result.stdout);
        if (result.code !== 0 || cpus.length === 0)
          throw new Error(`exited ${result.code}${cpus.length === 0 ? ', no cpu lines' : ''}: ${result.stderr.trim().split('\n')[0] ?? ''}`);
        reads.push({ at: Date.now(), cpus });
      })
      .catch((error: unknown) => {
        failed += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      })
      .finally(() => {
        inFlight = undefined;
      });
  };
  const timer = setInterval(tick, intervalSeconds * 1000);
  const halt = () => clearInterval(timer);
  signal.addEventListener('abort', halt, { once: true });
  if (!signal.aborted) tick();
  else halt();
  return {
    /** Stop ticking, wait for the read in flight, and hand over what was read. */
    async stop(): Promise<TickerResult> {
      halt();
      signal.removeEventListener('abort', halt);
      await inFlight;
      return { reads, skipped, failed, ...(firstError !== undefined ? { firstError } : {}) };
    },
  };
}
