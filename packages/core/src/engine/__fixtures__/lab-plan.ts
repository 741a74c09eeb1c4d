import type { Plan, PlannedTrial } from '../../plan/types.js';
import type { PublisherSpec, RunOptions } from '../../spec/types.js';
import type { LabHostConfig } from './lab-cloud.js';
import type { LabMode } from './lab-tool.js';

export interface LabPlanOptions {
  /** Folder the lab cloud makes its resources in. */
  root: string;
  runsDir: string;
  trials: readonly { mode: LabMode; seconds?: number }[];
  /** Extra host fields for host `a` (client) and `b` (server). */
  a?: Partial<LabHostConfig>;
  b?: Partial<LabHostConfig>;
  publish?: readonly PublisherSpec[];
  options?: Partial<RunOptions>;
}

/** A two-host plan (client `a`, server `b`) of lab-echo trials, as the planner would make it. */
export function labPlan(o: LabPlanOptions): Plan {
  const options: RunOptions = { concurrency: 1, trialTimeout: 5, retries: 1, provisionTimeout: 30, teardownTimeout: 30, install: true, runsDir: o.runsDir, ...o.options };
  const trials: PlannedTrial[] = o.trials.map((t, index) => ({
    id: `t${String(index + 1).padStart(4, '0')}`,
    index,
    benchmark: 0,
    benchmarkName: 'lab',
    tool: 'lab-echo',
    test: 'echo',
    params: { mode: t.mode, seconds: t.seconds ?? 0 },
    client: 'a',
    server: 'b',
    ip: 'internal',
    cell: { size: index },
    estimatedSeconds: t.seconds ?? 0,
  }));
  const text = `name: lab-test\nhosts:\n  a: { cloud: lab, root: ${o.root} }\n  b: { cloud: lab, root: ${o.root} }\n`;
  return {
    spec: {
      name: 'lab-test',
      description: 'engine test',
      hosts: { a: { cloud: 'lab', reuse: true, root: o.root, ...o.a }, b: { cloud: 'lab', reuse: true, root: o.root, ...o.b } },
      benchmarks: [{ tool: 'lab-echo', name: 'lab', client: 'a', server: 'b', ip: 'internal' }],
      publish: o.publish ?? [],
      options,
      source: { file: 'lab.yaml', text },
    },
    fleet: [
      { id: 'a', name: 'a', cloud: 'lab', config: { root: o.root, ...o.a } },
      { id: 'b', name: 'b', cloud: 'lab', config: { root: o.root, ...o.b } },
    ],
    trials,
    cells: trials.length,
    estimatedSeconds: trials.reduce((sum, t) => sum + t.estimatedSeconds, 0),
  };
}
