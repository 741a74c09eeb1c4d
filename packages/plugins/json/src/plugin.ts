import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { definePlugin } from '@netbench/plugin-api';
import { formatPkbSamples } from './pkb-format.js';


const settingsSchema = z.strictObject({
  /** Output file; default `<runDir>/results.pkb.jsonl`. Relative paths are from the working directory. */
  file: z.string().min(1).optional(),
  /** Indent each sample (easier to read, no longer one sample a line). */
  pretty: z.boolean().default(false),
});

export type JsonSettings = z.infer<typeof settingsSchema>;

/** `json`: the plugin object (the package's default export). */
export const jsonPlugin = definePlugin({
  kind: 'publisher',
  name: 'json',
  version: '0.1.0',
  description: 'Writes samples as PerfKit Benchmarker-compatible newline-delimited JSON.',
  schema: settingsSchema,
  async publish(run, samples, settings: JsonSettings, ctx) {
    const file = settings.file ? resolve(settings.file) : join(ctx.runDir, 'results.pkb.jsonl');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, formatPkbSamples(run, samples, settings.pretty), { mode: 0o600 });
    return { location: file, count: samples.length };
  },
});
