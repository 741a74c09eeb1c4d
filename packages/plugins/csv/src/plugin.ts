import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { definePlugin } from '@netbench/plugin-api';
import { formatCsv } from './csv-format.js';


const settingsSchema = z.strictObject({
  /** Output file; default `<runDir>/results.csv`. Relative paths are from the working directory. */
  file: z.string().min(1).optional(),
});

export type CsvSettings = z.infer<typeof settingsSchema>;

/** `csv`: the plugin object (the package's default export). */
export const csvPlugin = definePlugin({
  kind: 'publisher',
  name: 'csv',
  version: '0.1.0',
  description: 'Writes samples as a CSV table, one row per sample, one column per label.',
  schema: settingsSchema,
  async publish(_run, samples, settings: CsvSettings, ctx) {
    const file = settings.file ? resolve(settings.file) : join(ctx.runDir, 'results.csv');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, formatCsv(samples), { mode: 0o600 });
    return { location: file, count: samples.length };
  },
});
