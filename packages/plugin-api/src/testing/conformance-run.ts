// A run as the engine records it — two hosts, two trials, per-packet and
// summary samples with the labels the engine adds, one latency histogram —
// made in code, so a publisher can be checked without the engine (this kit
// depends on nothing of netbench but the contract).
import type { RunResults } from '../run/run-files.js';
import { newRunId } from '../run-id/run-id.js';
import { LatencyHistogram } from '../samples/histogram.js';
import type { Sample } from '../samples/types.js';

/** A complete `results.json` body whose run folder is `runDir`. */
export function conformanceRun(runDir: string, now = Date.now()): RunResults {
  const runId = newRunId(new Date(now));
  const startedAt = new Date(now - 20_000).toISOString();
  const finishedAt = new Date(now).toISOString();
  const hosts = [
    { id: 'a', name: 'a', cloud: 'conformance-loopback', zone: 'lab', internalIp: '127.0.0.1', labels: {} },
    { id: 'b', name: 'b', cloud: 'conformance-loopback', zone: 'lab', internalIp: '127.0.0.1', labels: {} },
  ];
  const samples: Sample[] = [];
  const runLabels = { run_id: runId, spec: 'conformance', owner: 'conformance' };
  const trialLabels = (trialId: string, test: string) => ({
    ...runLabels,
    trial_id: trialId,
    tool: 'conformance-echo',
    test,
    client: 'a',
    server: 'b',
    client_cloud: 'conformance-loopback',
    server_cloud: 'conformance-loopback',
    client_zone: 'lab',
    server_zone: 'lab',
    ip_type: 'internal',
  });
  const histogram = LatencyHistogram.create('us');
  for (let i = 0; i < 20; i++) {
    const rtt = 40 + ((i * 7) % 13);
    histogram.record(rtt);
    samples.push({
      metric: 'rtt',
      value: rtt / 1000,
      unit: 'ms',
      timestamp: now - 19_000 + i * 500,
      labels: { ...trialLabels('t0001', 'echo'), seq: i },
      runId,
      sampleId: `${runId}-${samples.length + 1}`,
      trialId: 't0001',
    });
  }
  samples.push({
    metric: 'rtt_p50',
    value: 0.046,
    unit: 'ms',
    timestamp: now - 9_000,
    labels: trialLabels('t0001', 'echo'),
    histogram: histogram.encode(),
    runId,
    sampleId: `${runId}-${samples.length + 1}`,
    trialId: 't0001',
  });
  samples.push({
    metric: 'throughput',
    value: 941.5,
    unit: 'Mbit/s',
    timestamp: now - 2_000,
    labels: { ...trialLabels('t0002', 'stream'), streams: 2 },
    runId,
    sampleId: `${runId}-${samples.length + 1}`,
    trialId: 't0002',
  });
  samples.push({
    metric: 'phase_duration',
    value: 0.25,
    unit: 's',
    timestamp: now,
    labels: { ...runLabels, phase: 'provision' },
    runId,
    sampleId: `${runId}-${samples.length + 1}`,
  });
  const trial = (id: string, test: string, count: number) => ({
    id,
    tool: 'conformance-echo',
    test,
    benchmarkName: 'conformance-echo',
    params: {},
    cell: {},
    client: 'a',
    server: 'b',
    status: 'succeeded' as const,
    attempts: 1,
    startedAt,
    finishedAt,
    rawFiles: [`raw/${id}-echo.txt`],
    sampleCount: count,
  });
  return {
    run: {
      runId,
      name: 'conformance',
      status: 'succeeded',
      startedAt,
      finishedAt,
      runDir,
      owner: 'conformance',
      netbenchVersion: '0.0.0-conformance',
      specText: 'name: conformance\n',
      hosts,
      trials: [trial('t0001', 'echo', 21), trial('t0002', 'stream', 1)],
      phases: [{ phase: 'provision', startedAt, durationMs: 250, ok: true }],
      errors: [],
      labels: runLabels,
    },
    samples,
  };
}
