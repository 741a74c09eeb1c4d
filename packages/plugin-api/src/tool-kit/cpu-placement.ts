import type { Host } from '../plugin/host.js';
import type { ToolPlacementDeclaration } from '../plugin/tool.js';
import { z } from '../plugin/zod.js';
import type { Labels } from '../samples/types.js';

/**
 * CPU placement decides request/response results on small machines (netperf
 * TCP_RR on 2 vCPUs: ~4x between both ends on one vCPU and on different
 * ones), so a benchmark block may pin each end: `cpus: { client: 0, server: 1 }`.
 * Tools apply it natively where they can (netperf `-T`, iperf3 `-A`), else
 * with `taskset -c` (`pinnedArgv`); every sample records where each end ran.
 */
export const cpusSchema = z.strictObject({
  /** CPU (0-based) the client-side process runs on. */
  client: z.number().int().min(0).max(4095).optional(),
  /** CPU the server-side process runs on. */
  server: z.number().int().min(0).max(4095).optional(),
});

export type CpuPinning = z.output<typeof cpusSchema>;

/**
 * `cpus` of a tool with no server process (ping, fping: the kernel answers):
 * only `client`; a `server` CPU is refused with the reason.
 */
export function clientCpuSchema(tool: string) {
  return cpusSchema.superRefine((cpus, ctx) => {
    if (cpus.server !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['server'], message: `${tool} has no server process (the kernel answers echo requests): pin only cpus.client` });
    }
  });
}

/**
 * `ToolPlugin.placement` of a tool with no server process (ping, fping; its
 * block takes `clientCpuSchema`): pinned by its client's CPU alone.
 */
export const clientOnlyPlacement: ToolPlacementDeclaration = {
  pinned: (params) => params['cpu_client'] !== undefined,
  howToPin: '`cpus: { client: 0 }`',
};

/** Trial parameters (so sample labels and series keys) of a pinning: `cpu_client`, `cpu_server`. */
export function cpuParams(cpus: CpuPinning | undefined): { cpu_client?: number; cpu_server?: number } {
  return {
    ...(cpus?.client !== undefined ? { cpu_client: cpus.client } : {}),
    ...(cpus?.server !== undefined ? { cpu_server: cpus.server } : {}),
  };
}

/** `taskset -c CPU argv…`, or `argv` unchanged when `cpu` is undefined. */
export function pinnedArgv(argv: readonly string[], cpu: number | undefined): string[] {
  return cpu === undefined ? [...argv] : ['taskset', '-c', String(cpu), ...argv];
}

const ALLOWED_RE = /^Cpus_allowed_list:\s*(\S+)\s*$/m;

/**
 * The CPUs process `pid` may run on, as the kernel says (`Cpus_allowed_list`
 * of /proc/PID/status, e.g. `0` or `0-1`); undefined when it cannot be read
 * (the process is gone, or the host's transport has no pid).
 */
export async function readAffinity(host: Host, pid: number | undefined, signal?: AbortSignal): Promise<string | undefined> {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return undefined;
  const result = await host.exec(['cat', `/proc/${pid}/status`], { timeoutMs: 5_000, ...(signal ? { signal } : {}) }).catch(() => undefined);
  return result?.code === 0 ? ALLOWED_RE.exec(result.stdout)?.[1] : undefined;
}

/**
 * Resolves at the process's first output — by then it has exec'd past
 * `taskset` (and any namespace or gate wrapper), so reading its affinity
 * sees the pinning — or when its output ends, or after `maxWaitMs` (tools
 * that print only at the end).
 */
export function firstOutput(stream: NodeJS.ReadableStream, maxWaitMs?: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = maxWaitMs === undefined ? undefined : setTimeout(done, maxWaitMs);
    timer?.unref?.();
    function done() {
      if (timer) clearTimeout(timer);
      stream.off('data', done);
      stream.off('end', done);
      stream.off('close', done);
      resolve();
    }
    stream.on('data', done);
    stream.on('end', done);
    stream.on('close', done);
  });
}

/** The direct children of `pid` (`/proc/PID/task/PID/children`), e.g. the process a server forked for this test. */
export async function childPids(host: Host, pid: number | undefined, signal?: AbortSignal): Promise<number[]> {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return [];
  const result = await host.exec(['cat', `/proc/${pid}/task/${pid}/children`], { timeoutMs: 5_000, ...(signal ? { signal } : {}) }).catch(() => undefined);
  return result?.code === 0 ? result.stdout.trim().split(/\s+/).filter(Boolean).map(Number).filter(Number.isInteger) : [];
}

/**
 * Labels of where each end ran: `cpu_client_affinity`, `cpu_server_affinity`
 * (what the kernel allowed the measuring processes, read back while they
 * ran; `unknown` when it could not be read). The requested CPUs are the
 * trial's `cpu_client`/`cpu_server` parameters; the host's CPU count is its
 * `cpu_count` host label (`host_client_cpu_count`, …).
 */
export function placementLabels(client: string | undefined, server: string | undefined): Labels {
  return { cpu_client_affinity: client ?? 'unknown', cpu_server_affinity: server ?? 'unknown' };
}
