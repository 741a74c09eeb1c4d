import { NetbenchError, type RunResults } from '@netbench/plugin-api';
import { exportResults, listResults } from '@netbench/results';

/**
 * A study (the shards of one plan, label `study=ID`) as one run for a report:
 * every shard's trials and samples together. Shards keep the plan's trial
 * ids, so the merged run has the trial set of the unsharded plan; each
 * sample keeps its own `run_id` and `shard` labels.
 */
export async function loadStudyResults(study: string, db?: string): Promise<RunResults> {
  const { runs } = await listResults({ ...(db ? { db } : {}), labels: [['study', study]], limit: 0 });
  if (runs.length === 0) throw new NetbenchError(`no run of study ${study} in the results store (shards carry the label study=ID)`);
  const parts = await exportResults({ ...(db ? { db } : {}), runs: runs.map((r) => r.runId).reverse() });
  return mergeStudy(study, parts);
}

export function mergeStudy(study: string, parts: readonly RunResults[]): RunResults {
  const [first] = parts;
  if (!first) throw new NetbenchError(`study ${study} has no runs`);
  const byTime = [...parts].sort((a, b) => a.run.startedAt.localeCompare(b.run.startedAt));
  const { shard: _shard, ...labels } = first.run.labels ?? {};
  return {
    run: {
      ...first.run,
      runId: `study ${study}`,
      startedAt: byTime[0]!.run.startedAt,
      finishedAt: byTime
        .map((p) => p.run.finishedAt)
        .sort()
        .at(-1)!,
      status: parts.every((p) => p.run.status === 'succeeded') ? 'succeeded' : parts.some((p) => p.run.status === 'interrupted') ? 'interrupted' : 'failed',
      trials: parts.flatMap((p) => p.run.trials).sort((a, b) => a.id.localeCompare(b.id)),
      hosts: parts.flatMap((p) => p.run.hosts),
      phases: parts.flatMap((p) => p.run.phases),
      errors: parts.flatMap((p) => p.run.errors),
      labels: { ...labels, study },
    },
    samples: parts.flatMap((p) => p.samples),
  };
}
