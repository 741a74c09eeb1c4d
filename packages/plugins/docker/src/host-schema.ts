import { z } from '@netbench/plugin-api';
import { congestionControlSchema, linkSchema } from '@netbench/plugin-api/cloud-kit';

/** The image `scripts/docker-image.sh` builds (Debian bookworm with ping, netperf, iperf3). */
export const DEFAULT_IMAGE = 'netbench/tools:bookworm';

const IMAGE_RE = /^[a-z0-9][a-z0-9._/:@-]*$/i;

export const hostSchema = z
  .strictObject({
    /**
     * TCP congestion control of the container's network namespace (Docker's
     * HostConfig.Sysctls net.ipv4.tcp_congestion_control), e.g. cubic or reno.
     * Bridge network only: on `network: host` it would change this machine's default.
     */
    congestionControl: congestionControlSchema.optional(),
    /** Image to run (any local image with /bin/sh and sleep); nothing is pulled. */
    image: z.string().regex(IMAGE_RE, { message: 'expected an image reference such as netbench/tools:bookworm or an image id' }).optional(),
    /** `bridge` (default): a user-defined bridge network made for the run; `host`: the machine's own network stack. */
    network: z.enum(['bridge', 'host']).optional(),
    /** CPU limit (Docker's --cpus). */
    cpus: z.number().positive().max(1024).optional(),
    /** Memory limit, e.g. 512m, 4g (Docker's --memory). */
    memory: z
      .string()
      .regex(/^\d+(?:\.\d+)?[kmg]?$/i, { message: 'expected a size such as 512m or 4g' })
      .optional(),
    /** Pin the container to CPUs, e.g. `0-1` or `2,3` (Docker's --cpuset-cpus): placement changes results. */
    cpuset: z
      .string()
      .regex(/^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$/, { message: 'expected CPUs such as 0-1 or 2,3' })
      .optional(),
    /**
     * The address hosts on other clouds see this container's traffic come from
     * (this machine's public IPv4, behind Docker's NAT), so their firewalls admit
     * it; `auto` asks an echo service at provision. Without it, other clouds only
     * learn the container's private address.
     */
    publicAddress: z.union([z.literal('auto'), z.ipv4({ message: 'expected auto or an IPv4 address such as 203.0.113.7' })]).optional(),
    /** Shaping of what this container sends (rate, netem) and receives (ingressRate), and the queue of both (bridge network only; the local lab's `link`). */
    link: linkSchema.optional(),
  })
  .refine((c) => c.congestionControl === undefined || c.network !== 'host', {
    message:
      "congestionControl needs the container's own network namespace: on network: host it would change this machine's default. To fix: use network: bridge (the default) or remove congestionControl",
    path: ['congestionControl'],
  });

export type { LinkConfig } from '@netbench/plugin-api/cloud-kit';
export type DockerHostConfig = z.infer<typeof hostSchema>;

/** Bytes from a Docker-style size (`512m`, `4g`, plain bytes). */
export function parseMemory(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kmg]?)$/i.exec(text.trim());
  if (!match) throw new Error(`not a size: ${text}`);
  const factor = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2]!.toLowerCase()] ?? 1;
  return Math.round(Number(match[1]) * factor);
}
