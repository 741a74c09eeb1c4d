import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrialContext } from '@netbench/core';

/** A `TrialContext` whose raw outputs land in a temp folder, recording progress and warnings. */
export interface TestTrialContext {
  readonly ctx: TrialContext;
  readonly controller: AbortController;
  readonly saved: Map<string, string>;
  readonly progress: { fraction: number; message?: string }[];
  readonly warnings: string[];
  dispose(): void;
}

export function testTrialContext(timeoutMs = 30_000): TestTrialContext {
  const runDir = mkdtempSync(join(tmpdir(), 'nbt-tooltest-'));
  const controller = new AbortController();
  const saved = new Map<string, string>();
  const progress: { fraction: number; message?: string }[] = [];
  const warnings: string[] = [];
  const ctx: TrialContext = {
    runId: 'test-run',
    runDir,
    signal: controller.signal,
    log: { debug() {}, info() {}, warn: (message) => void warnings.push(message) },
    timeoutMs,
    async saveRaw(name, content) {
      const path = join(runDir, name);
      writeFileSync(path, content);
      saved.set(name, path);
      return path;
    },
    progress: (fraction, message) => void progress.push({ fraction, message }),
  };
  return { ctx, controller, saved, progress, warnings, dispose: () => rmSync(runDir, { recursive: true, force: true }) };
}
