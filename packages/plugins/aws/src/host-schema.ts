import { z } from '@netbench/plugin-api';
import { vmCongestionControlSchema } from '@netbench/plugin-api/cloud-kit';
import { ipv4CidrSchema } from '@netbench/plugin-api/tool-kit';
import { isZone, regionOf } from './region.js';

const zone = z.string().refine(isZone, { message: 'expected an AWS availability zone such as us-east-1a' });
// Octets ≤ 255 and prefix ≤ 32, checked by value (the shape alone took 999.1.1.1/99).
const cidr = ipv4CidrSchema;

/** Canonical's Ubuntu images: `owner` 099720109477, newest image whose name matches. */
export const imageFilterSchema = z.strictObject({
  owner: z.string().min(1).default('099720109477').describe('AWS account that publishes the image.'),
  name: z.string().min(1).describe('Image name pattern (DescribeImages `name` filter, `*` wildcards); the newest match is used.'),
});

export const DEFAULT_MACHINE_TYPE = 'm5.large';

/** Fields of a `cloud: aws` host. */
export const hostSchema = z
  .strictObject({
    zone: zone.describe('Availability zone, e.g. us-east-1a; the region follows from it.'),
    machineType: z
      .string()
      .regex(/^[a-z][a-z0-9-]*\.[a-z0-9]+$/, 'expected an instance type such as m5.large')
      .default(DEFAULT_MACHINE_TYPE)
      .describe('EC2 instance type.'),
    image: z
      .union([z.string().regex(/^ami-[0-9a-f]+$/, 'expected an AMI id (ami-…) or { owner, name }'), imageFilterSchema])
      .optional()
      .describe('AMI id, or { owner, name } to pick the newest match. Default: the current Ubuntu LTS from Canonical.'),
    user: z.string().min(1).default('ubuntu').describe('SSH user of the image.'),
    placement: z.enum(['cluster']).optional().describe('cluster: hosts of a zone share a cluster placement group (lowest intra-zone latency).'),
    vpcId: z
      .string()
      .regex(/^vpc-[0-9a-f]+$/)
      .optional()
      .describe('Use this existing VPC (a subnet of it in the zone) instead of a new network; nothing of it is deleted.'),
    subnetId: z
      .string()
      .regex(/^subnet-[0-9a-f]+$/)
      .optional()
      .describe('Use this existing subnet; nothing of it is deleted.'),
    sshFrom: cidr.optional().describe("Who may reach port 22. Default: this machine's public address (detected), or $NETBENCH_SSH_FROM."),
    allowFrom: z
      .array(cidr)
      .default([])
      .describe(
        'Addresses outside the run that may reach the tool ports and ICMP (never SSH), e.g. the NAT address of an on-prem machine. Hosts of the run on other clouds are admitted without it.',
      ),
    endpoint: z.url().optional().describe('EC2 API endpoint (an emulator such as moto). Default: $NETBENCH_AWS_ENDPOINT, else AWS.'),
    fallbackZones: z.array(zone).default([]).describe('Zones of the same region tried in order when the zone has no capacity or quota.'),
    diskGb: z.int().min(8).max(16_384).optional().describe("Root volume size in GB (default: the image's)."),
    hostKeyWait: z.number().min(0).max(900).default(120).describe('Seconds to wait for the SSH host keys in the console output before trusting on first use.'),
    connectTimeout: z.number().positive().max(3_600).default(300).describe('Seconds to keep trying SSH while the machine boots.'),
    congestionControl: vmCongestionControlSchema.optional(),
  })
  .superRefine((host, ctx) => {
    if (!isZone(host.zone)) return;
    const region = regionOf(host.zone);
    host.fallbackZones.forEach((fallback, i) => {
      if (isZone(fallback) && regionOf(fallback) !== region) ctx.addIssue({ code: 'custom', path: ['fallbackZones', i], message: `must be in ${region}, like zone` });
    });
    if (host.vpcId && host.subnetId) ctx.addIssue({ code: 'custom', path: ['vpcId'], message: 'give vpcId or subnetId, not both (a subnet names its VPC)' });
  });

export type AwsHostConfig = z.output<typeof hostSchema>;
export type ImageChoice = AwsHostConfig['image'];
