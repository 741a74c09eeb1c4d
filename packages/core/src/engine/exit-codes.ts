/** Process exit codes of a run (the CLI exits with `RunOutcome.exitCode`). */
export const EXIT_CODES = {
  ok: 0,
  /** Anything unexpected, or results.json could not be written. */
  error: 1,
  specInvalid: 2,
  /** Some trials failed; the others' samples are published. */
  trialsFailed: 3,
  /** Some resources could not be deleted: run `netbench cleanup`. Wins over 3 and 5. */
  teardownFailed: 4,
  /** Hosts could not be provisioned or prepared; no trial ran. */
  provisionFailed: 5,
  /** Every trial ran, but the results store or a publisher failed; results.json holds every sample (`netbench results publish` sends it again). 3, 4 and 5 win. */
  publishFailed: 8,
  /** Stopped by a signal (128 + SIGINT). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
