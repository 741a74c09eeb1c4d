import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, line, median, repoRoot, tempDir } from './lib.mjs';

/**
 * Overhead per trial on the local lab: each trial's wall time minus the
 * tool's own measuring time (its duration; for ping, the time ping reports);
 * and a whole quickstart's wall time minus the sum of measuring times.
 */
export default async function orchestrationOverhead() {
  const home = tempDir('netbench-bench-orch-');
  const runsDir = join(home, 'runs');
  const started = process.hrtime.bigint();
  const { stdout } = cli(['run', join(repoRoot, 'examples/quickstart.yaml'), '--json', '--runs-dir', runsDir], { NETBENCH_HOME: home });
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  const { runDir } = JSON.parse(stdout);
  const events = readFileSync(join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const estimates = new Map(events.filter((e) => e.type === 'trial-started').map((e) => [e.trial, e.estimatedSeconds]));
  // ping's own clock runs longer than count × interval (timer slack): take the time it reports.
  const { run } = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8'));
  for (const trial of run.trials.filter((t) => t.tool === 'ping')) {
    const raw = trial.rawFiles.map((f) => readFileSync(join(runDir, f), 'utf8')).join('\n');
    const reported = /received, .*time (\d+)ms/.exec(raw);
    if (reported) estimates.set(trial.id, Number(reported[1]) / 1000);
  }
  const overheads = events.filter((e) => e.type === 'trial-finished').map((e) => e.durationMs / 1000 - (estimates.get(e.trial) ?? 0));
  const measuring = [...estimates.values()].reduce((a, b) => a + b, 0);
  for (const event of events.filter((e) => e.type === 'phase-finished')) line(`phase ${event.phase}`, `${(event.durationMs / 1000).toFixed(2)} s`);
  line(`per-trial overhead, median of ${overheads.length} trials`, `${median(overheads).toFixed(3)} s`, '≤ 0.5 s');
  line('per-trial overhead, max', `${Math.max(...overheads).toFixed(3)} s`);
  line(`quickstart: wall ${wallS.toFixed(1)} s − measuring ${measuring.toFixed(1)} s`, `${(wallS - measuring).toFixed(2)} s`, '≤ 3 s');
}
