import { definePlugin, z } from '@netbench/plugin-api';
import { writePublisherFile } from '@netbench/plugin-api/publisher-kit';
import { formatCsv } from './csv-format.js';

const settingsSchema = z.strictObject({
  /** Output file; default `<runDir>/results.csv`. Relative paths are inside the run folder; a path outside it is refused. */
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
    const file = await writePublisherFile(ctx.runDir, settings.file, 'results.csv', formatCsv(samples), 'csv publisher');
    return { location: file, count: samples.length };
  },
});
