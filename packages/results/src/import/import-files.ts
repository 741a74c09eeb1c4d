import { mkdir, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { PluginResolver } from '@netbench/core';
import { coreVersion, currentUser, EventLog, EXIT_CODES, RunFiles } from '@netbench/core';
import type { Labels, NetbenchEvent, PhaseRecord, RunRecord, Sample, TrialRecord } from '@netbench/plugin-api';
import { cannotCreate, defaultRunsDir, makePrivateDir, NetbenchError, newRunId, PRIVATE_DIR_MODE, RUN_FILES } from '@netbench/plugin-api';
import { defaultStorePath } from '../store/store-path.js';
import { withStore } from '../store/with-store.js';
import { type ParsedFile, parseFile } from './parse-file.js';
import { readInputs } from './read-inputs.js';

export interface ImportFilesOptions {
  /** A tool plugin's name, or `auto` to recognise each file's format. */
  readonly tool: string;
  readonly files: readonly string[];
  readonly registry: PluginResolver;
  /** Parent of the run folder; default `defaultRunsDir()`. */
  readonly runsDir?: string;
  /** Default `newRunId()`. */
  readonly runId?: string;
  /** The run's name (as a spec's `name`); default `import`. */
  readonly name?: string;
  /** Added to the run and to every sample; they win over the tool's labels. */
  readonly labels?: Labels;
  /** Test name for outputs that do not say (netperf `-P 0` CSV); handed to `parse`. */
  readonly test?: string;
  /** Results store file; default `defaultStorePath()`; `false`: do not store. */
  readonly db?: string | false;
  readonly netbenchVersion?: string;
  readonly onEvent?: (event: NetbenchEvent) => void;
}

export interface ImportedFile {
  /** As given. */
  readonly file: string;
  readonly tool: string;
  readonly trialId: string;
  readonly test: string;
  readonly status: 'succeeded' | 'failed';
  readonly samples: number;
  /** Copy of the file in the run folder, relative to it. */
  readonly rawFile: string;
  /** Why parsing failed: the tool's ParseError, naming file and line. */
  readonly error?: string;
}

export interface ImportOutcome {
  readonly record: RunRecord;
  readonly samples: Sample[];
  readonly files: ImportedFile[];
  /** 0 every file imported · 3 some could not be parsed (they are failed trials) · 1 the store refused the run. */
  readonly exitCode: number;
  /** The store the run went into; absent when not stored. */
  readonly storedIn?: string;
}

/**
 * `netbench import`: turn raw tool outputs measured elsewhere into a run,
 * through the same `parse` the tool plugins use when they run. One trial
 * per file (failed when its output cannot be parsed), the file copied under
 * `raw/`, `samples.jsonl`, `events.jsonl` and `results.json` as a run
 * writes them, then the run is ingested into the results store as the engine
 * does. Unreadable or unrecognised files throw an ImportError before anything
 * is written.
 */
export async function importFiles(options: ImportFilesOptions): Promise<ImportOutcome> {
  const inputs = await readInputs(options.files, options.tool, options.registry);
  const runId = options.runId ?? newRunId();
  const runsDir = resolve(options.runsDir ?? defaultRunsDir());
  const runDir = join(runsDir, runId);
  await makePrivateDir(runsDir, 'the runs folder');
  try {
    await mkdir(runDir, { mode: PRIVATE_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new NetbenchError(`run folder ${runDir} already exists: a run id is used once`);
    throw cannotCreate(error, runDir, 'the run folder');
  }

  const startedAt = new Date();
  const name = options.name ?? 'import';
  const owner = currentUser();
  const netbenchVersion = options.netbenchVersion ?? coreVersion();
  const runLabels: Labels = { run_id: runId, spec: name, owner, netbench_version: netbenchVersion, imported: true, ...options.labels };
  const events = new EventLog(runId, join(runDir, RUN_FILES.events));
  if (options.onEvent) events.listen(options.onEvent);
  const files = new RunFiles(runDir);
  try {
    events.emit({ type: 'run-started', name, runDir, trials: inputs.length, hosts: 0, estimatedSeconds: 0 });
    events.emit({ type: 'phase-started', phase: 'execute' });
    const began = performance.now();
    const samples: Sample[] = [];
    const trials: TrialRecord[] = [];
    const imported: ImportedFile[] = [];
    for (const [index, input] of inputs.entries()) {
      const trialId = `t${String(index + 1).padStart(4, '0')}`;
      const parsed = await parseFile(input, {
        trialId,
        index,
        total: inputs.length,
        runLabels,
        userLabels: options.labels ?? {},
        test: options.test,
        nextSample: samples.length,
        events,
        files,
      });
      samples.push(...parsed.samples);
      trials.push(trialRecord(parsed, name));
      imported.push(importedFile(parsed));
    }
    const phase: PhaseRecord = {
      phase: 'execute',
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - began),
      ok: imported.every((f) => f.status === 'succeeded'),
    };
    events.emit({ type: 'phase-finished', phase: 'execute', durationMs: phase.durationMs, ok: phase.ok });

    const errors: string[] = [];
    const buildRecord = (): RunRecord => ({
      runId,
      name,
      description: `imported from ${inputs.length} file${inputs.length === 1 ? '' : 's'} (--tool ${options.tool})`,
      status: phase.ok ? 'succeeded' : 'failed',
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      runDir,
      owner,
      netbenchVersion,
      hosts: [],
      trials,
      phases: [phase],
      errors: [...errors],
      labels: runLabels,
      ...declaredMetrics(inputs),
    });
    let record = buildRecord();
    await files.writeResults({ run: record, samples });
    let exitCode: number = phase.ok ? EXIT_CODES.ok : EXIT_CODES.trialsFailed;
    let storedIn: string | undefined;
    if (options.db !== false) {
      const db = resolve(options.db ?? defaultStorePath());
      try {
        // The same ingest the engine does when a run finishes: one transaction, the run replaced if present.
        await withStore(db, (store) => store.ingest({ run: record, samples }));
        storedIn = db;
        events.emit({ type: 'published', publisher: 'store', location: db, count: samples.length });
      } catch (error) {
        const message = `results store: ${(error as Error).message} (the run folder is complete; \`netbench results add ${runDir}\` stores it later)`;
        errors.push(message);
        events.emit({ type: 'error', message, phase: 'publish', plugin: 'store' });
        if (exitCode === EXIT_CODES.ok) exitCode = EXIT_CODES.error;
        record = buildRecord();
        await files.writeResults({ run: record, samples });
      }
    }
    events.emit({
      type: 'run-finished',
      status: record.status,
      durationMs: Date.now() - startedAt.getTime(),
      failedTrials: trials.filter((t) => t.status === 'failed').length,
      teardownErrors: 0,
    });
    return { record, samples, files: imported, exitCode, ...(storedIn !== undefined ? { storedIn } : {}) };
  } catch (error) {
    // Only a failure to write the run folder lands here (disk full, permissions): leave no half run behind.
    files.close();
    events.close();
    await rm(runDir, { recursive: true, force: true });
    throw error;
  } finally {
    files.close();
    events.close();
  }
}

function trialRecord(parsed: ParsedFile, benchmarkName: string): TrialRecord {
  return {
    id: parsed.trialId,
    tool: parsed.tool,
    test: parsed.test,
    benchmarkName,
    params: { file: basename(parsed.input.file) },
    cell: {},
    client: 'unknown',
    server: 'unknown',
    status: parsed.error === undefined ? 'succeeded' : 'failed',
    attempts: 1,
    startedAt: parsed.startedAt,
    finishedAt: parsed.finishedAt,
    ...(parsed.error !== undefined ? { error: parsed.error } : {}),
    rawFiles: [parsed.rawFile],
    sampleCount: parsed.samples.length,
  };
}

function importedFile(parsed: ParsedFile): ImportedFile {
  return {
    file: parsed.input.file,
    tool: parsed.tool,
    trialId: parsed.trialId,
    test: parsed.test,
    status: parsed.error === undefined ? 'succeeded' : 'failed',
    samples: parsed.samples.length,
    rawFile: parsed.rawFile,
    ...(parsed.error !== undefined ? { error: parsed.error } : {}),
  };
}

/** What the parsing tools declared of their metrics, as a run records it: the summary reads an imported trial as a measured one. */
function declaredMetrics(inputs: readonly { readonly tool: { readonly name: string; readonly metrics?: RunRecord['metrics'] } }[]): Pick<RunRecord, 'metrics' | 'toolMetrics'> {
  const declaring = [...new Map(inputs.filter((i) => i.tool.metrics !== undefined).map((i) => [i.tool.name, i.tool.metrics!])).entries()];
  if (declaring.length === 0) return {};
  return { metrics: Object.assign({}, ...declaring.map(([, m]) => m)), toolMetrics: Object.fromEntries(declaring) };
}
