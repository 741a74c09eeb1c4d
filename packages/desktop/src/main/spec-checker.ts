import { Worker } from 'node:worker_threads';
import type { RegistryOptions } from '@netbench/core';
import type { SpecCheck } from '../shared/bridge-types.js';
import { EDITOR_FILE } from './check-spec-text.js';

/** How long one check may take before its worker is stopped (a spec that plans for minutes is an answer too). */
export const CHECK_TIMEOUT_MS = 30_000;

/**
 * The editor's spec checks in a worker thread: the UI server checks what the
 * user types on every keystroke, and a spec that takes seconds to plan (a
 * matrix near the trial limit, a hostile filter) must not freeze it — runs'
 * live events, other requests and Ctrl-C go on meanwhile. A check past
 * `CHECK_TIMEOUT_MS` stops the worker (the next check starts another) and
 * answers with an issue saying so.
 */
export class SpecChecker {
  private worker: Worker | undefined;
  private next = 0;
  private readonly pending = new Map<number, { resolve: (check: SpecCheck) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();

  constructor(
    private readonly registry: RegistryOptions,
    private readonly timeoutMs = CHECK_TIMEOUT_MS,
  ) {}

  check(text: string, maxCostUsd?: number): Promise<SpecCheck> {
    const worker = this.start();
    const id = this.next++;
    return new Promise<SpecCheck>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stop();
        resolve({
          ok: false,
          issues: [
            {
              file: EDITOR_FILE,
              line: 0,
              col: 0,
              path: '',
              message: `checking the spec took longer than ${this.timeoutMs / 1000} s and was stopped (a matrix or filter too large to plan)`,
            },
          ],
          warnings: [],
        });
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, text, ...(maxCostUsd !== undefined ? { maxCostUsd } : {}) });
    });
  }

  /** Stop the worker; checks still waiting fail. */
  async close(): Promise<void> {
    await this.stop();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./check-spec-worker.js', import.meta.url), { workerData: this.registry });
    worker.on('message', (message: { id: number; result?: SpecCheck; error?: string }) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.result) waiting.resolve(message.result);
      else waiting.reject(new Error(message.error ?? 'the spec check failed'));
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('the spec check worker stopped'));
    });
    // An idle worker does not keep the process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private failAll(error: Error): void {
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      this.pending.delete(id);
      waiting.reject(error);
    }
  }
}
