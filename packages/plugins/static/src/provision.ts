import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError, UnsupportedError } from '@netbench/plugin-api';
import { CONGESTION_CONTROL_LABEL, CPU_COUNT_LABEL, readCongestionControl, readCpuCount } from '@netbench/plugin-api/cloud-kit';
import { CONNECTION, closeConnection, connectionId, remember } from './connections.js';
import type { StaticHostConfig } from './host-schema.js';
import { sshOptions } from './ssh-options.js';

/** The label run metadata and every sample carry: how the host key was verified. */
export const HOST_KEY_LABEL = 'host_key_verification';

/**
 * Connect to every host at once. Nothing is created; each connection is
 * still recorded (`connection`), so teardown closes it even when provision
 * fails half-way. When any host cannot be reached, the others are closed and
 * one error names every failure.
 */
export async function provisionStatic(requests: readonly HostRequest<StaticHostConfig>[], ctx: ProvisionContext): Promise<Host[]> {
  // A passphrase is a secret field: the stored spec has it redacted (or holds only its ${env:…}/${file:…} reference).
  const outcomes = await Promise.allSettled(
    requests.map(async (request) => {
      const options = sshOptions(request);
      const id = connectionId(request.id);
      const resource = {
        type: CONNECTION,
        id,
        host: request.id,
        data: { address: options.address, port: options.port ?? 22, user: options.user, ...(options.jump ? { jump: options.jump.address } : {}) },
      };
      const labels: Record<string, string> = { ...request.config.labels, [HOST_KEY_LABEL]: options.hostKey.mode };
      return ctx.ledger
        .track(resource, async () => {
          const connected = await ctx.connectSsh({ ...options, labels });
          remember(ctx.runId, id, connected);
          return connected;
        })
        .then(async (host) => {
          // What the connection read as it opened (no round trip of its own); else one command each, at once.
          const facts = (await host.facts?.()) ?? {};
          const run = (argv: readonly string[]) => host.exec(argv, { timeoutMs: 15_000 });
          const [current, cpus] = await Promise.all([
            facts.congestionControl ?? readCongestionControl(run),
            // How many CPUs the machine has decides how much CPU placement matters (host_<role>_cpu_count).
            facts.cpuCount ?? readCpuCount(run),
          ]);
          // The host keeps this labels object: what it reports is the label, whatever the spec asked.
          congestionControl(current, request, labels);
          if (cpus !== undefined) labels[CPU_COUNT_LABEL] = cpus;
          return host;
        });
    }),
  );
  const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  if (failed.length === 0) return outcomes.map((o) => (o as PromiseFulfilledResult<Host>).value);
  await Promise.allSettled(requests.map((r) => closeConnection(ctx.runId, connectionId(r.id))));
  const messages = failed.map((e) => (e instanceof Error ? e.message : String(e)));
  if (failed.length === 1 && failed[0] instanceof Error) throw failed[0];
  throw new NetbenchError(`${failed.length} of ${requests.length} static hosts could not be used:\n  ${messages.join('\n  ')}`, { cause: failed[0] });
}

/** Label the host with its TCP congestion control (`current`, read from it); refuse when the spec requires another one. */
function congestionControl(current: string | undefined, request: HostRequest<StaticHostConfig>, labels: Record<string, string>): void {
  if (current !== undefined) labels[CONGESTION_CONTROL_LABEL] = current;
  const wanted = request.config.congestionControl;
  if (wanted === undefined || wanted === current) return;
  throw new UnsupportedError(
    `static: host ${request.id} uses TCP congestion control ${current ?? '(unknown: cannot read /proc/sys/net/ipv4/tcp_congestion_control)'}, not ${wanted}. ` +
      `netbench does not change a machine's default it could not restore after a crash. To fix: run \`sudo sysctl -w net.ipv4.tcp_congestion_control=${wanted}\` on the host ` +
      `(modprobe tcp_${wanted} first if it is not in tcp_available_congestion_control), or set congestion in the iperf3/netperf block for the test's own connections.`,
  );
}
