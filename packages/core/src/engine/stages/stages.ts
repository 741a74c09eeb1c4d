import { NetbenchError } from '@netbench/plugin-api';

/** The stages of a run, in order. A run may do them across several invocations (`--stage`). */
export const STAGES = ['provision', 'prepare', 'execute', 'teardown'] as const;
export type Stage = (typeof STAGES)[number];

/** A contiguous range of stages, e.g. `provision`, `provision-prepare`, `execute-teardown`. */
export interface StageRange {
  readonly from: Stage;
  readonly to: Stage;
}

export const ALL_STAGES: StageRange = { from: 'provision', to: 'teardown' };

const isStage = (text: string): text is Stage => (STAGES as readonly string[]).includes(text);

/** Parse `--stage`: one stage or `first-last`. */
export function parseStageRange(text: string): StageRange {
  const [from = '', to = from, ...rest] = text.split('-');
  if (rest.length > 0 || !isStage(from!) || !isStage(to)) {
    throw new NetbenchError(`--stage ${text}: expected one of ${STAGES.join('|')} or a range like provision-prepare`);
  }
  if (STAGES.indexOf(from) > STAGES.indexOf(to)) throw new NetbenchError(`--stage ${text}: ${from} comes after ${to}`);
  return { from, to };
}

export function includesStage(range: StageRange, stage: Stage): boolean {
  const at = STAGES.indexOf(stage);
  return STAGES.indexOf(range.from) <= at && at <= STAGES.indexOf(range.to);
}

export function formatStageRange(range: StageRange): string {
  return range.from === range.to ? range.from : `${range.from}-${range.to}`;
}
