import { definePlugin, z } from '@netbench/plugin-api';
import { writePublisherFile } from '@netbench/plugin-api/publisher-kit';
import { formatPkbSamples } from './pkb-format.js';

const settingsSchema = z.strictObject({
  /** Output file; default `<runDir>/results.pkb.jsonl`. Relative paths are inside the run folder; a path outside it is refused. */
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
    const file = await writePublisherFile(ctx.runDir, settings.file, 'results.pkb.jsonl', formatPkbSamples(run, samples, settings.pretty), 'json publisher');
    return { location: file, count: samples.length };
  },
});
