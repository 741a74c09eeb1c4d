import { basename } from 'node:path';
import type { EventLog, RunFiles } from '@netbench/core';
import type { Labels, Sample, SampleInput } from '@netbench/plugin-api';
import type { ImportInput } from './read-inputs.js';

export interface ParseFileContext {
  readonly trialId: string;
  readonly index: number;
  readonly total: number;
  /** Labels of the run (id, name, owner, version, `imported`, the user's). */
  readonly runLabels: Labels;
  /** The user's `--label`s: they win over everything. */
  readonly userLabels: Labels;
  readonly test?: string;
  /** Samples of the run so far (sample ids continue from it). */
  readonly nextSample: number;
  readonly events: EventLog;
  readonly files: RunFiles;
}

export interface ParsedFile {
  readonly input: ImportInput;
  readonly trialId: string;
  readonly tool: string;
  readonly test: string;
  readonly rawFile: string;
  readonly samples: Sample[];
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly error?: string;
}

/**
 * One file as one trial: copy it under `raw/` first (kept even when it does
 * not parse), parse it with its tool's `parse`, and turn the samples into
 * the run's, labelled as the engine labels a trial's (run, tool, test, and
 * `source_file`), appended to `samples.jsonl` and announced as events.
 */
export async function parseFile(input: ImportInput, ctx: ParseFileContext): Promise<ParsedFile> {
  const { tool } = input;
  const startedAt = new Date().toISOString();
  const began = performance.now();
  ctx.events.emit({ type: 'trial-started', trial: ctx.trialId, index: ctx.index, total: ctx.total, tool: tool.name, test: ctx.test ?? tool.name, attempt: 0, estimatedSeconds: 0 });
  const rawFile = await ctx.files.saveRaw(ctx.trialId, basename(input.file), input.text);

  let inputs: SampleInput[] = [];
  let error: string | undefined;
  try {
    inputs = tool.parse(input.text, { source: input.file, ...(ctx.test !== undefined ? { test: ctx.test } : {}) });
    if (!Array.isArray(inputs)) throw new Error(`[plugin ${tool.name}] parse returned no samples array`);
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    inputs = [];
  }
  const valid = inputs.filter((s) => {
    const ok = typeof s?.metric === 'string' && s.metric !== '' && typeof s.value === 'number' && Number.isFinite(s.value) && typeof s.unit === 'string';
    if (!ok) ctx.events.emit({ type: 'warning', plugin: tool.name, message: `${input.file}: dropped an invalid sample ${JSON.stringify(s)}` });
    return ok;
  });
  if (error === undefined && valid.length === 0) error = `${input.file}: the ${tool.name} output holds no measurement`;

  // The tool names the test when its output says (netperf's banner); else the caller's, else the tool.
  const labelled = valid.find((s) => typeof s.labels?.['test'] === 'string')?.labels?.['test'];
  const test = typeof labelled === 'string' ? labelled : (ctx.test ?? tool.name);
  const context: Labels = { ...ctx.runLabels, benchmark: ctx.runLabels['spec'] ?? 'import', tool: tool.name, test, source_file: input.path };
  const samples = valid.map(
    (s, i): Sample => ({
      runId: String(ctx.runLabels['run_id']),
      sampleId: `${String(ctx.runLabels['run_id'])}-${ctx.nextSample + i + 1}`,
      trialId: ctx.trialId,
      metric: s.metric,
      value: s.value,
      unit: s.unit,
      // A file knows when it was written, not when it was imported; -D/--timestamps outputs know better.
      timestamp: s.timestamp ?? Math.round(input.mtimeMs),
      labels: { ...context, ...s.labels, ...ctx.userLabels },
      ...(s.histogram ? { histogram: s.histogram } : {}),
    }),
  );
  ctx.files.appendSamples(samples);
  for (const sample of samples) ctx.events.emit({ type: 'sample', sample });
  ctx.events.emit({
    type: 'trial-finished',
    trial: ctx.trialId,
    status: error === undefined ? 'succeeded' : 'failed',
    durationMs: Math.round(performance.now() - began),
    samples: samples.length,
    ...(error !== undefined ? { error } : {}),
  });
  return { input, trialId: ctx.trialId, tool: tool.name, test, rawFile, samples, startedAt, finishedAt: new Date().toISOString(), ...(error !== undefined ? { error } : {}) };
}
