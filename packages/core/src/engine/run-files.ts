import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rawFileName, RUN_FILES, type RunRecord, type RunResults } from '@netbench/plugin-api';
import type { Sample } from '@netbench/plugin-api';

export { RUN_FILES, type RunResults };

/** Writes a run folder's sample stream, raw outputs and results. */
export class RunFiles {
  private samplesFd: number | undefined;

  constructor(readonly runDir: string) {
    this.samplesFd = openSync(join(runDir, RUN_FILES.samples), 'a');
  }

  /**
   * Append samples as they arrive. Synchronous so they are in the file before
   * the engine goes on: a run killed with SIGKILL keeps every sample it had.
   */
  appendSamples(samples: readonly Sample[]): void {
    if (this.samplesFd === undefined || samples.length === 0) return;
    writeSync(this.samplesFd, samples.map((s) => `${JSON.stringify(s)}\n`).join(''));
  }

  /** Save one raw output as `raw/<prefix>-<name>`; returns the path relative to the run folder. */
  async saveRaw(prefix: string, name: string, content: string): Promise<string> {
    const relative = join(RUN_FILES.raw, rawFileName(prefix, name));
    await mkdir(join(this.runDir, RUN_FILES.raw), { recursive: true });
    await writeFile(join(this.runDir, relative), content);
    return relative;
  }

  /** Write `results.json` atomically (temp file + rename), so a reader never sees half of it. */
  async writeResults(results: RunResults): Promise<string> {
    const file = join(this.runDir, RUN_FILES.results);
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, `${JSON.stringify(results, null, 2)}\n`);
    await rename(temp, file);
    return file;
  }

  close(): void {
    if (this.samplesFd === undefined) return;
    closeSync(this.samplesFd);
    this.samplesFd = undefined;
  }
}
