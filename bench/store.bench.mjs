import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { LatencyHistogram } from '@netbench/plugin-api';
import { compareResults, listResults, openStore } from '@netbench/results';
import { cli, line, median, tempDir } from './lib.mjs';

/**
 * The results store: ingest rate, `results list` over 10,000 runs and
 * `compare` of two 1,000-sample runs — each timed in process (open the
 * store, query, compute; what the command does after Node and oclif have
 * started) and as the whole CLI command, next to `netbench --version`.
 */
export default async function storeBench() {
  const dir = tempDir('netbench-bench-store-');
  try {
    await ingestRate(join(dir, 'ingest.db'));
    await listRuns(join(dir, 'list.db'));
    await compareRuns(join(dir, 'compare.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const time = (fn) => {
  const started = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
};
const timeAsync = async (fn) => {
  const started = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
};

/**
 * A run shaped like real ones: trials of one tool with ~22 context labels,
 * each trial one repetition of one configuration, its samples sharing the
 * trial's labels (`perSampleLabels` gives every sample its own, like
 * iperf3's per-interval samples: the worst case for label sets).
 */
function syntheticRun(runId, { trials, metrics, reps = 1, startedAt = Date.UTC(2030, 0, 1), histograms = 0, scale = 1, seed = 1, perSampleLabels = false }) {
  let state = seed;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const records = [];
  const samples = [];
  for (let t = 0; t < trials; t += 1) {
    const id = `t${String(t + 1).padStart(4, '0')}`;
    const config = Math.floor(t / reps);
    const params = { duration: 10, streams: 1 + (config % 8), ...(reps > 1 ? { repetition: 1 + (t % reps) } : {}) };
    records.push({
      id,
      tool: 'netperf',
      test: 'TCP_RR',
      benchmarkName: 'netperf',
      params,
      cell: { zone: `zone-${config % 20}` },
      client: 'a',
      server: 'b',
      status: 'succeeded',
      attempts: 1,
      rawFiles: [`raw/${id}-netperf.txt`],
      sampleCount: metrics,
    });
    const labels = {
      run_id: runId,
      spec: 'bench',
      netbench_version: '0.1.0',
      benchmark: 'netperf',
      tool: 'netperf',
      test: 'TCP_RR',
      ip_type: 'internal',
      client_host: 'a',
      client_cloud: 'gcp',
      client_zone: `zone-${config % 20}`,
      client_machine_type: 'n2-standard-4',
      server_host: 'b',
      server_cloud: 'gcp',
      server_zone: 'us-west1-b',
      server_machine_type: 'n2-standard-4',
      zone: `zone-${config % 20}`,
      ...params,
      netperf_version: '2.7.0',
      netperf_histogram: true,
    };
    for (let m = 0; m < metrics; m += 1) {
      const n = samples.length + 1;
      const sample = {
        runId,
        sampleId: `${runId}-${n}`,
        trialId: id,
        metric: `TCP_RR_metric_${m}`,
        value: (100 + random() * 10) * scale,
        unit: 'us',
        timestamp: startedAt + n,
        labels: perSampleLabels ? { ...labels, interval_start: m } : labels,
      };
      if (m < histograms) {
        const h = LatencyHistogram.create('us');
        for (let i = 0; i < 1000; i += 1) h.record((80 + random() * 40) * scale);
        sample.histogram = h.encode();
      }
      samples.push(sample);
    }
  }
  const iso = new Date(startedAt).toISOString();
  const run = {
    runId,
    name: 'bench',
    status: 'succeeded',
    startedAt: iso,
    finishedAt: iso,
    runDir: `/tmp/${runId}`,
    owner: 'bench',
    netbenchVersion: '0.1.0',
    hosts: [],
    trials: records,
    phases: [],
    errors: [],
    labels: { run_id: runId, spec: 'bench', owner: 'bench', netbench_version: '0.1.0' },
  };
  return { run, samples };
}

async function measureAsync(fn) {
  const cpu = process.cpuUsage();
  const { ms, value } = await timeAsync(fn);
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, value };
}

/** Wall and CPU milliseconds of `fn` (CPU time is what the machine's other load cannot inflate). */
function measure(fn) {
  const cpu = process.cpuUsage();
  const { ms, value } = time(fn);
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, value };
}

async function ingestRate(db) {
  const store = await openStore(db);
  try {
    for (const [label, perSampleLabels] of [
      ['', false],
      [', every sample its own labels', true],
    ]) {
      const wall = [];
      const cpu = [];
      let count = 0;
      for (let i = 0; i < 3; i += 1) {
        // 200 trials × 1,000 samples, a fresh run id each time (no replace).
        const results = syntheticRun(`20300101-00000${i}-ing${perSampleLabels ? 'p' : 't'}0${i}`, { trials: 200, metrics: 1000, histograms: 2, perSampleLabels });
        const { ms, cpuMs } = measure(() => store.ingest(results));
        count = results.samples.length;
        wall.push(count / (ms / 1000));
        cpu.push(count / (cpuMs / 1000));
      }
      const rate = (x) => `${Math.round(median(x)).toLocaleString('en-US')}/s`;
      line(`ingest of a ${count.toLocaleString('en-US')}-sample run${label}, median of 3`, rate(wall), label ? undefined : '≥ 200,000 samples/s');
      line('  … per CPU second (unaffected by other load)', rate(cpu));
    }
  } finally {
    store.close();
  }
}

async function listRuns(db) {
  const store = await openStore(db);
  try {
    for (let i = 0; i < 10_000; i += 1) {
      const id = `2030${String(101 + (i % 12) * 100).padStart(4, '0')}-${String(i).padStart(6, '0')}-l${String(i).padStart(5, '0')}`;
      store.ingest(syntheticRun(id, { trials: 2, metrics: 5, startedAt: Date.UTC(2030, 0, 1) + i * 60_000 }));
    }
  } finally {
    store.close();
  }
  const inProcess = [];
  const cpu = [];
  let total = 0;
  for (let i = 0; i < 5; i += 1) {
    const { ms, cpuMs, value } = await measureAsync(() => listResults({ db, limit: 0 }));
    inProcess.push(ms);
    cpu.push(cpuMs);
    total = value.runs.length;
  }
  line(`results list of ${total.toLocaleString('en-US')} runs, in process, median of 5`, `${median(inProcess).toFixed(0)} ms`, '≤ 200 ms');
  line('  … CPU time (unaffected by other load)', `${median(cpu).toFixed(0)} ms`);
  const newest = await measureAsync(() => listResults({ db, limit: 20 }));
  line('  … the newest 20 (the default), in process', `${newest.ms.toFixed(0)} ms`);
  const filtered = await timeAsync(() => listResults({ db, labels: [['zone', 'zone-3']], tool: 'netperf', limit: 0 }));
  line('  … filtered by label and tool, in process', `${filtered.ms.toFixed(0)} ms`);
  const command = Array.from({ length: 3 }, () => cli(['results', 'list', '--db', db, '--limit', '0', '--json']).ms);
  const version = Array.from({ length: 3 }, () => cli(['--version']).ms);
  line('netbench results list --limit 0 --json (whole CLI), median of 3', `${median(command).toFixed(0)} ms`);
  line('  … of which CLI start-up (netbench --version)', `${median(version).toFixed(0)} ms`);
}

async function compareRuns(db) {
  // 10 repetitions × 100 metrics; 10 metrics carry a 1,000-value latency histogram.
  const a = syntheticRun('20300201-000000-cmpaaa', { trials: 10, reps: 10, metrics: 100, histograms: 10, seed: 1 });
  const b = syntheticRun('20300201-010000-cmpbbb', { trials: 10, reps: 10, metrics: 100, histograms: 10, scale: 1.02, seed: 2, startedAt: Date.UTC(2030, 1, 1, 1) });
  const store = await openStore(db);
  try {
    store.ingest(a);
    store.ingest(b);
  } finally {
    store.close();
  }
  const runs = { baseline: { runs: [a.run.runId] }, candidate: { runs: [b.run.runId] } };
  const inProcess = [];
  const cpu = [];
  let rows = 0;
  for (let i = 0; i < 5; i += 1) {
    const { ms, cpuMs, value } = await measureAsync(() => compareResults({ db, ...runs }));
    inProcess.push(ms);
    cpu.push(cpuMs);
    rows = value.rows.length;
  }
  line(`compare of two ${a.samples.length.toLocaleString('en-US')}-sample runs (${rows} rows), in process, median of 5`, `${median(inProcess).toFixed(0)} ms`, '≤ 300 ms');
  line('  … CPU time (unaffected by other load)', `${median(cpu).toFixed(0)} ms`);
  const command = Array.from({ length: 3 }, () => cli(['compare', a.run.runId, b.run.runId, '--db', db, '--json']).ms);
  line('netbench compare --json (whole CLI), median of 3', `${median(command).toFixed(0)} ms`);
}
