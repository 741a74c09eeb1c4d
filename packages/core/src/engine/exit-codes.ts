/** Process exit codes of a run (the CLI exits with `RunOutcome.exitCode`). */
export const EXIT_CODES = {
  ok: 0,
  /** Anything unexpected, or a publisher that failed while the rest succeeded. */
  error: 1,
  specInvalid: 2,
  /** Some trials failed; the others' samples are published. */
  trialsFailed: 3,
  /** Some resources could not be deleted: run `netbench cleanup`. Wins over 3 and 5. */
  teardownFailed: 4,
  /** Hosts could not be provisioned or prepared; no trial ran. */
  provisionFailed: 5,
  /** Stopped by a signal (128 + SIGINT). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
