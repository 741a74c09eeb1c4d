// The whitepaper's Fig. 2 (GCP inter-region average ping RTT, ms, sending
// region × receiving region) as netbench run results: one ping trial per
// ordered region pair, as examples/whitepaper-inter-region.yaml runs it
// (190 cells × both directions). Used by the report tests and benchmark.
// Only type imports besides core, so Node can load it with type stripping.
import { LatencyHistogram } from '@netbench/plugin-api';
import type { RunResults, Sample, TrialRecord } from '@netbench/plugin-api';

export const ZONES = [
  'asia-east1-a', 'asia-east2-a', 'asia-northeast1-a', 'asia-northeast2-a', 'asia-south1-a', 'asia-southeast1-a',
  'australia-southeast1-a', 'europe-north1-a', 'europe-west1-c', 'europe-west2-a', 'europe-west3-a', 'europe-west4-a',
  'europe-west6-a', 'northamerica-northeast1-a', 'southamerica-east1-a', 'us-central1-a', 'us-east1-b', 'us-east4-a',
  'us-west1-a', 'us-west2-a',
];

// Rows: sending region; columns: receiving region; 0 on the diagonal (not measured).
export const FIG2_MS: readonly (readonly number[])[] = [
  [0, 13, 36, 37, 107, 46, 139, 282, 250, 244, 258, 253, 262, 183, 289, 153, 185, 175, 118, 128],
  [13, 0, 48, 48, 95, 37, 127, 294, 263, 257, 267, 266, 274, 195, 302, 164, 197, 190, 130, 142],
  [36, 49, 0, 9, 127, 67, 114, 254, 220, 215, 226, 222, 234, 154, 260, 122, 156, 146, 89, 98],
  [37, 48, 9, 0, 138, 79, 122, 260, 228, 224, 235, 231, 241, 163, 269, 131, 165, 156, 98, 106],
  [108, 95, 127, 138, 0, 60, 151, 374, 341, 337, 346, 348, 359, 276, 384, 245, 276, 267, 212, 220],
  [46, 37, 67, 77, 60, 0, 92, 318, 285, 278, 290, 286, 296, 215, 323, 187, 219, 209, 152, 161],
  [139, 127, 114, 122, 152, 92, 0, 303, 271, 264, 276, 273, 283, 203, 302, 171, 196, 196, 160, 137],
  [283, 296, 253, 261, 374, 318, 303, 0, 33, 40, 32, 31, 39, 115, 241, 132, 124, 113, 165, 167],
  [251, 263, 219, 228, 342, 285, 271, 33, 0, 7, 7, 7, 14, 82, 210, 99, 92, 81, 131, 134],
  [245, 258, 215, 224, 337, 279, 265, 40, 7, 0, 13, 10, 20, 77, 203, 94, 87, 76, 127, 129],
  [259, 268, 226, 234, 349, 290, 276, 32, 7, 13, 0, 7, 8, 88, 214, 105, 98, 87, 137, 140],
  [254, 267, 223, 231, 348, 286, 273, 30, 7, 10, 7, 0, 14, 84, 211, 102, 94, 83, 136, 137],
  [263, 275, 234, 242, 358, 297, 283, 39, 14, 20, 8, 14, 0, 95, 221, 112, 105, 93, 147, 147],
  [183, 196, 154, 163, 277, 216, 203, 115, 82, 77, 88, 84, 95, 0, 142, 31, 25, 14, 67, 66],
  [290, 303, 260, 269, 383, 323, 301, 241, 210, 204, 215, 212, 221, 142, 0, 144, 117, 130, 172, 166],
  [154, 164, 122, 131, 245, 188, 172, 131, 99, 94, 105, 103, 111, 31, 143, 0, 35, 25, 34, 35],
  [186, 198, 157, 165, 276, 220, 197, 124, 92, 87, 98, 94, 104, 26, 118, 35, 0, 12, 67, 60],
  [176, 190, 146, 156, 267, 209, 196, 113, 81, 76, 86, 84, 93, 14, 129, 25, 12, 0, 58, 60],
  [119, 131, 89, 98, 212, 153, 161, 164, 131, 127, 137, 136, 147, 67, 172, 34, 67, 58, 0, 25],
  [128, 142, 98, 106, 219, 161, 137, 166, 133, 129, 140, 137, 146, 66, 166, 36, 60, 60, 26, 0],
];

/** Deterministic pseudo-random numbers (mulberry32), so fixtures are the same every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Run results of the whitepaper's inter-region ping matrix; `count` pings per trial with ±3 % jitter around Fig. 2's means. */
export function interRegionResults(options: { runId?: string; count?: number; seed?: number } = {}): RunResults {
  const runId = options.runId ?? '20261122-120000-fig2aa';
  const count = options.count ?? 60;
  const next = random(options.seed ?? 7);
  const trials: TrialRecord[] = [];
  const samples: Sample[] = [];
  let n = 0;
  const start = Date.parse('2026-11-22T12:00:00Z');
  for (let i = 0; i < ZONES.length; i++) {
    for (let j = i + 1; j < ZONES.length; j++) {
      for (const direction of ['forward', 'reverse'] as const) {
        const id = `t${String(trials.length + 1).padStart(4, '0')}`;
        const [from, to] = direction === 'forward' ? [i, j] : [j, i];
        const mean = FIG2_MS[from]![to]!;
        const params = { direction, count, size: 56, flood: false, interval: 1 };
        trials.push({
          id, tool: 'ping', test: 'icmp', benchmarkName: 'ping', params, cell: { zone: ZONES[i]!, extra_zone: ZONES[j]! },
          client: 'src', server: 'dst', status: 'succeeded', attempts: 1, rawFiles: [`raw/${id}-ping-${direction}.txt`], sampleCount: 5,
        });
        const histogram = LatencyHistogram.create('us');
        const rtts: number[] = [];
        for (let k = 0; k < count; k++) {
          const rtt = mean * (0.97 + 0.06 * next()) * 1000;
          rtts.push(rtt);
          histogram.record(rtt);
        }
        const labels = {
          run_id: runId, spec: 'whitepaper-inter-region', benchmark: 'ping', tool: 'ping', test: 'icmp', ip_type: 'internal',
          client_host: 'src', client_cloud: 'gcp', client_zone: ZONES[i]!, client_machine_type: 'n1-standard-2',
          server_host: 'dst', server_cloud: 'gcp', server_zone: ZONES[j]!, server_machine_type: 'n1-standard-2',
          zone: ZONES[i]!, extra_zone: ZONES[j]!, ...params, ping_version: 's20221126',
        };
        const timestamp = start + trials.length * 61_000;
        const add = (metric: string, value: number, unit: string, extra: Partial<Sample> = {}) => {
          n += 1;
          samples.push({ metric, value, unit, timestamp, labels, runId, sampleId: `${runId}-${n}`, trialId: id, ...extra });
        };
        const avg = rtts.reduce((s, v) => s + v, 0) / count / 1000;
        add('Average Latency', Number(avg.toFixed(3)), 'ms', { histogram: histogram.encode() });
        add('Latency p50', histogram.percentile(50) / 1000, 'ms');
        add('Latency p99', histogram.percentile(99) / 1000, 'ms');
        add('Packet Loss', 0, 'percent');
        add('Packets Sent', count, 'count');
      }
    }
  }
  const finished = new Date(start + trials.length * 61_000).toISOString();
  return {
    run: {
      runId, name: 'whitepaper-inter-region', description: 'GCP all-region ping latency matrix (whitepaper Fig. 2 values)',
      status: 'succeeded', startedAt: new Date(start).toISOString(), finishedAt: finished, runDir: `/tmp/${runId}`,
      owner: 'fixture', netbenchVersion: '0.1.0', specFile: 'examples/whitepaper-inter-region.yaml',
      specText: 'name: whitepaper-inter-region\n# the whitepaper Fig. 2 matrix, as fixture\n',
      hosts: [], trials, phases: [], errors: [], labels: { run_id: runId, spec: 'whitepaper-inter-region' },
    },
    samples,
  };
}
