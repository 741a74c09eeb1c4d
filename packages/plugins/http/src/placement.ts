import type { Host } from '@netbench/plugin-api';

const NAME_RE = /^Name:\s*(\S+)\s*$/m;
const ALLOWED_RE = /^Cpus_allowed_list:\s*(\S+)\s*$/m;
const LOOKS = 40;
const LOOK_EVERY_MS = 25;

/**
 * The CPUs the generator may run on, read from `/proc/PID/status` as soon as
 * the process is the generator itself (`Name:`), past the `ip netns exec` and
 * `taskset` it started as (the same pid, each exec'ing the next). Looking at
 * once rather than at its first output keeps the probe at the very start:
 * oha prints nothing until it ends, and a probe in the middle of a
 * constant-rate run would delay the requests due then (its latency counts
 * from when each was due). Undefined when the process is gone or never
 * showed up as `name` within a second.
 */
export async function generatorAffinity(host: Host, pid: number | undefined, name: string, signal: AbortSignal): Promise<string | undefined> {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return undefined;
  for (let look = 0; look < LOOKS; look += 1) {
    const status = await host.exec(['cat', `/proc/${pid}/status`], { timeoutMs: 5_000, signal }).catch(() => undefined);
    if (status?.code !== 0) return undefined;
    // The kernel keeps the first 15 characters of the program's file name.
    if (NAME_RE.exec(status.stdout)?.[1] === name.slice(0, 15)) return ALLOWED_RE.exec(status.stdout)?.[1];
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
  return undefined;
}
