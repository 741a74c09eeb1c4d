/**
 * How many times longer than usual commands this machine starts may take: `NETBENCH_TIMEOUT_SCALE`
 * (a number ≥ 1, default 1). The kernel VM sets 10 (scripts/kernel-vm.sh): under TCG a process starts
 * 10–30× slower, and a tool's 15 s check of `id -u` timed out there while every lab host was checked.
 * Anything else (unset, below 1, not a number) is 1, so a typo never shortens a timeout.
 */
export function timeoutScale(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const scale = Number(env.NETBENCH_TIMEOUT_SCALE);
  return Number.isFinite(scale) && scale >= 1 ? scale : 1;
}
