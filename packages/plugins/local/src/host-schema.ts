import { z } from '@netbench/plugin-api';
import { congestionControlSchema, linkSchema } from '@netbench/plugin-api/cloud-kit';
import { isPrivateSubnet, parseIpv4, parseSubnet } from './subnet.js';

export const DEFAULT_SUBNET = '10.213.0.0/24';

export const hostSchema = z.strictObject({
  /** Private range the lab's addresses come from; every local host of a run must agree. */
  subnet: z
    .string()
    .refine((s) => parseSubnet(s) !== undefined, { message: 'expected an IPv4 subnet such as 10.213.0.0/24 (prefix 8..30, host bits zero)' })
    .refine(
      (s) => {
        const subnet = parseSubnet(s);
        return subnet === undefined || isPrivateSubnet(subnet);
      },
      {
        message: 'the lab subnet must be a private range (10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16)',
      },
    )
    .optional(),
  /** Fixed address inside the subnet. */
  address: z
    .string()
    .refine((s) => parseIpv4(s) !== undefined, { message: 'expected an IPv4 address such as 10.213.0.20' })
    .optional(),
  /** Shaping of what this host sends (rate, netem) and receives (ingressRate), and the queue of both. */
  link: linkSchema.optional(),
  /** TCP congestion control of the namespace (sysctl net.ipv4.tcp_congestion_control); the kernel must have it loaded. */
  congestionControl: congestionControlSchema.optional(),
  /** Run an sshd inside the namespace. */
  sshd: z.boolean().optional(),
  /** MTU of the host's eth0 (default the kernel's 1500): a lab path with a jumbo or a tunnel-sized MTU, or two ends that disagree. */
  mtu: z.int().min(576).max(65_535).optional(),
});

export type { LinkConfig } from '@netbench/plugin-api/cloud-kit';
export type LocalHostConfig = z.infer<typeof hostSchema>;
