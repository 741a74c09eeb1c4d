import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sample } from '@netbench/plugin-api';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, RUN_FILES, type RunResults, rawFileName } from '@netbench/plugin-api';
import { writeFailure } from '../events/event-log.js';

export { RUN_FILES, type RunResults };

/**
 * Writes a run folder's sample stream, raw outputs and results. The sample
 * stream never throws: when it cannot be written (a full disk), it is given
 * up, `onWriteError` says so once, and the samples stay in memory for
 * results.json and the publishers.
 */
export class RunFiles {
  private samplesFd: number | undefined;
  /** Why `samples.jsonl` stopped being written, once it did. */
  writeError: string | undefined;

  constructor(
    readonly runDir: string,
    private readonly onWriteError: (message: string) => void = () => {},
  ) {
    try {
      this.samplesFd = openSync(join(runDir, RUN_FILES.samples), 'a', PRIVATE_FILE_MODE);
    } catch (error) {
      this.giveUp(error);
    }
  }

  private giveUp(error: unknown): void {
    this.close();
    if (this.writeError !== undefined) return;
    this.writeError = writeFailure(error);
    this.onWriteError(`cannot write samples.jsonl (${this.writeError}); samples are kept in memory for results.json and the publishers`);
  }

  /**
   * Append samples as they arrive. Synchronous so they are in the file before
   * the engine goes on: a run killed with SIGKILL keeps every sample it had.
   */
  appendSamples(samples: readonly Sample[]): void {
    if (this.samplesFd === undefined || samples.length === 0) return;
    try {
      writeSync(this.samplesFd, samples.map((s) => `${JSON.stringify(s)}\n`).join(''));
    } catch (error) {
      this.giveUp(error);
    }
  }

  /** Save one raw output as `raw/<prefix>-<name>`; returns the path relative to the run folder. */
  async saveRaw(prefix: string, name: string, content: string): Promise<string> {
    const relative = join(RUN_FILES.raw, rawFileName(prefix, name));
    await mkdir(join(this.runDir, RUN_FILES.raw), { recursive: true, mode: PRIVATE_DIR_MODE });
    await writeFile(join(this.runDir, relative), content, { mode: PRIVATE_FILE_MODE });
    return relative;
  }

  /** Write `results.json` atomically (temp file + rename), so a reader never sees half of it. */
  async writeResults(results: RunResults): Promise<string> {
    const file = join(this.runDir, RUN_FILES.results);
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, `${JSON.stringify(results, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
    await rename(temp, file);
    return file;
  }

  close(): void {
    if (this.samplesFd === undefined) return;
    try {
      closeSync(this.samplesFd);
    } catch {
      // Nothing more to lose.
    }
    this.samplesFd = undefined;
  }
}
