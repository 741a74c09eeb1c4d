import { z } from '@netbench/plugin-api';
import { vmCongestionControlSchema } from '@netbench/plugin-api/cloud-kit';
import { ipv4CidrSchema } from '@netbench/plugin-api/tool-kit';

const ZONE_RE = /^[a-z][a-z0-9]+(-[1-3])?$/;
const zone = z.string().regex(ZONE_RE, { message: 'expected an Azure location, optionally with an availability zone: eastus, eastus-2' });
// Octets ≤ 255 and prefix ≤ 32, checked by value (the shape alone took 999.1.1.1/99).
const cidr = ipv4CidrSchema;
const location = (value: string) => value.replace(/-[1-3]$/, '');

/**
 * Admin user names the Compute API refuses (`osProfile.adminUsername`,
 * "Disallowed values" in Microsoft.Compute's OSProfile, api-version 2025-04-01;
 * the same list ships in `@azure/arm-compute`'s model docs).
 */
export const RESERVED_ADMIN_NAMES: ReadonlySet<string> = new Set([
  'administrator',
  'admin',
  'user',
  'user1',
  'test',
  'user2',
  'test1',
  'user3',
  'admin1',
  '1',
  '123',
  'a',
  'actuser',
  'adm',
  'admin2',
  'aspnet',
  'backup',
  'console',
  'david',
  'guest',
  'john',
  'owner',
  'root',
  'server',
  'sql',
  'support',
  'support_388945a0',
  'sys',
  'test2',
  'test3',
  'user4',
  'user5',
]);

export const hostSchema = z
  .strictObject({
    /** Location, optionally with an availability zone (`eastus-2`), as PKB spells Azure zones. */
    zone,
    /** VM size. */
    machineType: z
      .string()
      .regex(/^[A-Za-z0-9_]+$/)
      .default('Standard_D2s_v5'),
    /** Subscription; default `AZURE_SUBSCRIPTION_ID`, then the Azure CLI's default subscription. */
    subscription: z
      .string()
      .regex(/^[0-9a-fA-F-]{36}$/)
      .optional(),
    /** Marketplace image `publisher:offer:sku:version` (default: the current Ubuntu LTS). */
    image: z
      .string()
      .regex(/^[^:]+:[^:]+:[^:]+:[^:]+$/, { message: 'expected publisher:offer:sku:version' })
      .default('Canonical:ubuntu-24_04-lts:server:latest'),
    /**
     * Accelerated networking (SR-IOV) on the NIC. Default: on when the size
     * supports it (Resource SKUs capability `AcceleratedNetworkingEnabled`),
     * off when it does not (such a size refuses a NIC with it on).
     */
    acceleratedNetworking: z.boolean().optional(),
    /** Give the host a public address (Standard SKU, static). */
    publicIp: z.boolean().default(true),
    /** `proximity`: a proximity placement group per location (lowest latency between the hosts). */
    placement: z.enum(['proximity']).optional(),
    /** Zones of the same location to try when the zone has no capacity (`eastus-3`). */
    fallbackZones: z.array(zone).default([]),
    /** Address space of the run's VNet in this location (default 10.<100+n>.0.0/16). */
    cidr: cidr.optional(),
    /** Reuse an existing subnet instead of a per-run VNet (one location per run). */
    vnet: z.strictObject({ resourceGroup: z.string(), name: z.string(), subnet: z.string() }).optional(),
    /** Where SSH is allowed from; default: the public address netbench runs from, /32. */
    sshFrom: z.array(cidr).optional(),
    /** Extra sources allowed to reach the hosts on every port (the run's hosts on other clouds are admitted without it). */
    allowFrom: z.array(cidr).default([]),
    /** The VM's admin user (Azure's `adminUsername`): not one of the names Azure reserves (root, admin, user, test, guest, …). */
    sshUser: z
      .string()
      .regex(/^[a-z_][a-z0-9_-]{0,31}$/)
      .refine((name) => !RESERVED_ADMIN_NAMES.has(name), {
        message: 'Azure reserves this admin user name (root, admin, user, test, guest, …); choose another, e.g. netbench or azureuser',
      })
      .default('netbench'),
    /** TCP congestion control, set over SSH after boot (the VM is deleted with the run). */
    congestionControl: vmCongestionControlSchema.optional(),
    sshKeyPath: z.string().optional(),
    /** How the host key is verified: from the boot diagnostics serial log, falling back to trust-on-first-use. */
    hostKeys: z.enum(['console', 'console-or-tofu', 'tofu']).default('console-or-tofu'),
  })
  .refine((c) => c.fallbackZones.every((z) => location(z) === location(c.zone)), { message: 'fallback zones must be in the same location as zone', path: ['fallbackZones'] })
  .refine((c) => !(c.vnet && c.cidr), { message: 'cidr applies to the per-run VNet, not to an existing vnet', path: ['cidr'] });

export type AzureHostConfig = z.output<typeof hostSchema>;

export function imageReference(urn: string): { publisher: string; offer: string; sku: string; version: string } {
  const [publisher, offer, sku, version] = urn.split(':') as [string, string, string, string];
  return { publisher, offer, sku, version };
}
