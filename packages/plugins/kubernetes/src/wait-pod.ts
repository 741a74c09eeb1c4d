import { type KubeConfig, type V1Pod, Watch } from '@kubernetes/client-node';

export class PodStartError extends Error {
  override readonly name = 'PodStartError';
}

/** Why a pod is not running yet (or never will), from its status; undefined when it is running. */
export function podProblem(pod: V1Pod): { final: boolean; message: string } | undefined {
  const status = pod.status;
  if (status?.phase === 'Running' && status.podIP) return undefined;
  if (status?.phase === 'Failed' || status?.phase === 'Succeeded') {
    return { final: true, message: `pod ${status.phase.toLowerCase()}${status.message ? `: ${status.message}` : ''}` };
  }
  const waiting = status?.containerStatuses?.find((c) => c.state?.waiting)?.state?.waiting;
  if (waiting?.reason && /ErrImagePull|ImagePullBackOff|InvalidImageName|CreateContainerConfigError/.test(waiting.reason)) {
    // Pulls are retried by the kubelet; a bad name or config is not.
    return {
      final: waiting.reason === 'InvalidImageName' || waiting.reason === 'CreateContainerConfigError',
      message: `${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`,
    };
  }
  // ContainerCreating with the runtime's error (a sandbox it cannot make, e.g. a sysctl the kernel refuses): the kubelet retries.
  if (waiting?.message) return { final: false, message: `${waiting.reason ?? 'waiting'}: ${waiting.message}` };
  const unscheduled = status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  if (unscheduled) return { final: false, message: `not scheduled (${unscheduled.reason ?? 'unknown'}): ${unscheduled.message ?? ''}`.trim() };
  return { final: false, message: `phase ${status?.phase ?? 'unknown'}` };
}

/**
 * Watch one pod (`fieldSelector=metadata.name=...`) until it runs with a pod
 * IP. A watch without `resourceVersion` starts with the pod's current state,
 * so a pod that is already running resolves at once. Rejects with the last
 * reason seen on failure, timeout or abort.
 */
export async function waitForPodRunning(config: KubeConfig, namespace: string, name: string, timeoutMs: number, signal: AbortSignal): Promise<V1Pod> {
  let last = 'no status seen';
  let controller: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await new Promise<V1Pod>((resolve, reject) => {
      timer = setTimeout(() => reject(new PodStartError(`pod ${namespace}/${name} not running after ${timeoutMs / 1000} s: ${last}`)), timeoutMs);
      onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`;
      new Watch(config)
        .watch(
          path,
          { fieldSelector: `metadata.name=${name}` },
          (phase, pod: V1Pod) => {
            if (phase === 'DELETED') return reject(new PodStartError(`pod ${namespace}/${name} was deleted while starting`));
            if (phase === 'ERROR') return reject(new PodStartError(`watch of pod ${namespace}/${name} failed: ${(pod as { message?: string }).message ?? ''}`));
            const problem = podProblem(pod);
            if (!problem) return resolve(pod);
            last = problem.message;
            if (problem.final) reject(new PodStartError(`pod ${namespace}/${name}: ${problem.message}`));
          },
          (error: unknown) => {
            if (error) reject(error instanceof Error ? error : new Error(String(error)));
            else reject(new PodStartError(`watch of pod ${namespace}/${name} ended before it was running: ${last}`));
          },
        )
        .then((c) => {
          controller = c;
        }, reject);
    });
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    controller?.abort();
  }
}
