/**
 * Turns SIGINT/SIGTERM into an abort, so the engine tears down and keeps what
 * was measured. A third signal exits at once (teardown is then left to
 * `netbench cleanup`).
 */
export function interruptSignal(onInterrupt: (count: number, signal: NodeJS.Signals) => void): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  let count = 0;
  const handler = (signal: NodeJS.Signals) => {
    count += 1;
    onInterrupt(count, signal);
    if (count === 1) controller.abort(new Error(`interrupted by ${signal}`));
    if (count >= 3) process.exit(130);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
