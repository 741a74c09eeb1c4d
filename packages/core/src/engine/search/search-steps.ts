import type { Sample } from '@netbench/plugin-api';
import type { PlannedTrial } from '../../plan/types.js';

/**
 * The searches of a run (`TrialSpec.search`): which steps still run. Steps
 * of a group run in plan order; the first step that does not beat the best
 * so far by `minGainPercent` (or fails, or reports no figure) ends it.
 */
export class SearchSteps {
  private readonly best = new Map<string, { value: number; trial: string }>();
  private readonly ended = new Map<string, string>();

  /** Why `trial` is not run, or `undefined` to run it. */
  skipReason(trial: PlannedTrial): string | undefined {
    return trial.search ? this.ended.get(trial.search.group) : undefined;
  }

  /** Take a finished step's outcome into account. */
  record(trial: PlannedTrial, succeeded: boolean, samples: readonly Sample[]): void {
    const search = trial.search;
    if (!search || this.ended.has(search.group)) return;
    const figure = samples.find(
      (s) =>
        s.trialId === trial.id &&
        s.metric === search.metric &&
        s.labels['series'] === undefined &&
        (trial.flows ? s.labels['flow'] === 'aggregate' : s.labels['stream'] === undefined),
    );
    const best = this.best.get(search.group);
    const what = `${search.metric} of ${trial.id}`;
    if (!succeeded || !figure) {
      this.ended.set(search.group, `search stopped: ${what} ${succeeded ? 'was not reported' : 'failed'}${best ? `; best ${best.trial} (${best.value})` : ''}`);
      return;
    }
    if (best && figure.value < best.value * (1 + search.minGainPercent / 100)) {
      this.ended.set(search.group, `search stopped: ${what} (${round(figure.value)}) rose less than ${search.minGainPercent} % over ${best.trial} (${round(best.value)})`);
    }
    if (!best || figure.value > best.value) this.best.set(search.group, { value: figure.value, trial: trial.id });
  }
}

const round = (value: number) => Math.round(value * 100) / 100;
