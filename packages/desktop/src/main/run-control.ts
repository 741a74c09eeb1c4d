import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PluginResolver, type RunOutcome, type RunSpecOptions, runSpec } from '@netbench/core';
import { NetbenchError, type NetbenchEvent, newRunId, type RunRecord, type Sample } from '@netbench/plugin-api';
import { type ChartSpec, chartsFor, runStore } from '@netbench/results';
import type { BridgeEvent, LiveRun, RunEnded } from '../shared/bridge-types.js';
import { refusedRun, runEnded } from './run-ended.js';

/** What starts a run: `runSpec` from core; a bench may pass a stand-in that emits recorded events. */
export type RunFunction = (options: RunSpecOptions) => Promise<RunOutcome>;

export interface RunControlOptions {
  readonly registry: PluginResolver;
  readonly runsDir?: string;
  readonly db?: string;
  readonly netbenchVersion: string;
  readonly run?: RunFunction;
}

interface ActiveRun {
  readonly runId: string;
  name: string;
  readonly controller: AbortController;
  readonly events: NetbenchEvent[];
  readonly samples: Sample[];
  /**
   * Live values (`trial-interval`) per trial. They stay after the trial
   * ended (netperf and ping store totals, not their intervals: dropping the
   * live values made a finished trial's time series vanish when the next
   * one started) unless its stored samples carry interval series of their own.
   */
  readonly live: Map<string, Sample[]>;
  /** Trials whose stored samples have interval series: those replace the live values. */
  readonly storedIntervals: Set<string>;
  /** Counts every change to `samples` and `live`: the live charts' cache key. */
  version: number;
  ended?: RunEnded;
  done?: Promise<RunEnded>;
  /** Live charts are recomputed only when samples or live values arrived since the last time. */
  charts?: { readonly version: number; readonly specs: ChartSpec[] };
}

/** Runs kept in memory after they end, so the live page can still be opened. */
const KEEP_ENDED = 20;

/**
 * Starts runs with core's `runSpec`, keeps their event streams, forwards
 * every event to subscribers (IPC or the browser channel), and cancels them:
 * cancel aborts the run's signal, so trials stop and teardown and publish
 * still happen — what was measured is kept and stored.
 */
export class RunControl {
  private readonly runs = new Map<string, ActiveRun>();
  private readonly listeners = new Set<(event: BridgeEvent) => void>();

  constructor(private readonly options: RunControlOptions) {}

  subscribe(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Start a run of an already validated spec text; resolves as soon as it has started. */
  async start(text: string, name: string, maxCostUsd?: number): Promise<{ runId: string }> {
    const runId = newRunId();
    const dir = await mkdtemp(join(tmpdir(), 'netbench-desktop-'));
    const file = join(dir, 'spec.yaml');
    await writeFile(file, text);
    const controller = new AbortController();
    const run: ActiveRun = { runId, name, controller, events: [], samples: [], live: new Map(), storedIntervals: new Set(), version: 0 };
    this.runs.set(runId, run);
    const runner = this.options.run ?? runSpec;
    run.done = runner({
      file,
      registry: this.options.registry,
      runId,
      signal: controller.signal,
      onEvent: (event) => this.record(run, event),
      onWarning: (message) => this.record(run, { seq: 0, time: Date.now(), runId, type: 'warning', message }),
      netbenchVersion: this.options.netbenchVersion,
      ...(this.options.runsDir !== undefined ? { runsDir: this.options.runsDir } : {}),
      store: runStore(this.options.db),
      ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    })
      .then(
        (outcome) => runEnded(outcome),
        (error: unknown) => refusedRun(error),
      )
      .then((ended) => {
        run.ended = ended;
        this.emit({ kind: 'run-ended', runId, ended });
        this.forgetOld();
        return ended;
      })
      .finally(() => rm(dir, { recursive: true, force: true }));
    return { runId };
  }

  cancel(runId: string): { cancelled: boolean } {
    const run = this.runs.get(runId);
    if (!run || run.ended || run.controller.signal.aborted) return { cancelled: false };
    run.controller.abort(new NetbenchError('cancelled from the desktop app'));
    return { cancelled: true };
  }

  live(runId: string): LiveRun {
    const run = this.get(runId);
    return { runId, name: run.name, events: run.events, ...(run.ended ? { ended: run.ended } : {}) };
  }

  /**
   * Charts of what has arrived so far: latency CDF and interval time series,
   * from the stored samples and the live values of every trial so far,
   * finished ones too (a trial's live values give way to its stored samples
   * only when those have interval series of their own).
   */
  liveCharts(runId: string): ChartSpec[] {
    const run = this.get(runId);
    if (run.charts?.version === run.version) return run.charts.specs;
    const samples = [...run.samples, ...[...run.live].flatMap(([trial, values]) => (run.storedIntervals.has(trial) ? [] : values))];
    const specs = samples.length === 0 ? [] : chartsFor([{ run: liveRecord(run), samples }], { kinds: ['cdf', 'timeseries'] });
    run.charts = { version: run.version, specs };
    return specs;
  }

  active(): string[] {
    return [...this.runs.values()].filter((r) => !r.ended).map((r) => r.runId);
  }

  /** Resolves when the run has ended (tests, and `dispose` before quitting). */
  async wait(runId: string): Promise<RunEnded> {
    return this.get(runId).done!;
  }

  /** Cancel every run and wait for their teardown (the app is quitting). */
  async dispose(): Promise<void> {
    const running = [...this.runs.values()].filter((r) => !r.ended);
    for (const run of running) this.cancel(run.runId);
    await Promise.allSettled(running.map((r) => r.done));
  }

  private get(runId: string): ActiveRun {
    const run = this.runs.get(runId);
    if (!run) throw new NetbenchError(`no run ${runId} was started in this session`);
    return run;
  }

  private record(run: ActiveRun, event: NetbenchEvent): void {
    if (event.type === 'sample') {
      run.samples.push(event.sample);
      const trial = event.sample.trialId;
      if (trial !== undefined && !run.storedIntervals.has(trial) && isInterval(event.sample)) {
        run.storedIntervals.add(trial);
        run.live.delete(trial);
      }
      run.version += 1;
    } else if (event.type === 'trial-interval') {
      // Not kept in the event list (a ping trial sends one per reply): charts and the page's current value use them.
      const list = run.live.get(event.trial) ?? [];
      list.push(...event.samples);
      run.live.set(event.trial, list);
      run.version += 1;
    } else {
      run.events.push(event);
    }
    if (event.type === 'run-started') run.name = event.name;
    this.emit({ kind: 'run-event', runId: run.runId, event });
  }

  private emit(event: BridgeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A closed window or dropped connection must not stop the run or the other listeners.
      }
    }
  }

  private forgetOld(): void {
    const ended = [...this.runs.values()].filter((r) => r.ended);
    for (const run of ended.slice(0, Math.max(0, ended.length - KEEP_ENDED))) this.runs.delete(run.runId);
  }
}

/** A sample of an interval series (iperf3's intervals, a load trial's flows), which the charts draw over time. */
function isInterval(sample: Sample): boolean {
  return typeof sample.labels['interval_end'] === 'number' || sample.labels['series'] === 'interval';
}

/** A run record for charting a run in progress: charts take configurations from the samples' labels. */
function liveRecord(run: ActiveRun): RunRecord {
  const now = new Date().toISOString();
  return {
    runId: run.runId,
    name: run.name,
    status: 'succeeded',
    startedAt: now,
    finishedAt: now,
    runDir: '',
    owner: '',
    netbenchVersion: '',
    hosts: [],
    trials: [],
    phases: [],
    errors: [],
    labels: {},
  };
}
