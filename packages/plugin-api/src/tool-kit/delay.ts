// Unref'd: these waits always race a child process, which keeps the loop alive
// while it runs; a pending wait must not hold the CLI open after it exits.
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
