import { secret, z } from '@netbench/plugin-api';
import { congestionControlSchema } from '@netbench/plugin-api/cloud-kit';
import { hostAddressSchema } from '@netbench/plugin-api/tool-kit';

const port = z.int().min(1).max(65535);
const path = z.string().min(1);
/** Names a POSIX environment variable; its value is read when netbench runs, so it never lands in the run folder. */
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'expected an environment variable name such as NETBENCH_KEY_PASSPHRASE' });

export const connectRetrySchema = z.strictObject({
  attempts: z.int().min(1).max(1000).describe('Attempts in all (at least 1).'),
  initialDelayMs: z.int().min(0).max(600_000).optional().describe('Milliseconds before the second attempt, doubled after each failure (default 500).'),
  maxDelayMs: z.int().min(0).max(3_600_000).optional().describe('Longest wait between attempts, ms (default 5000).'),
});

export const jumpSchema = z.strictObject({
  address: hostAddressSchema.describe('Bastion host name or IP.'),
  port: port.optional().describe('Default 22.'),
  user: z.string().min(1).optional().describe("Default: the host's user."),
  key: path.optional().describe('Private key file for the bastion; default: the ssh-agent.'),
  passphrase: secret(z.string())
    .optional()
    .describe('Passphrase of the bastion key: a secret, never stored or shown; give it as ${env:NAME} or ${file:/path} (or use passphraseEnv).'),
  passphraseEnv: envName.optional().describe('Environment variable holding the bastion key passphrase.'),
  knownHosts: path.optional().describe('known_hosts file for the bastion (default ~/.ssh/known_hosts, /etc/ssh/ssh_known_hosts).'),
});

/** `cloud: static`: a machine you already have, reached over SSH. Nothing is created. */
export const hostSchema = z
  .strictObject({
    // Addresses reach tool argv (fping, ping, ...): an IP or a host name, never something a tool reads as an option.
    address: hostAddressSchema.describe('Host name or IP netbench connects to.'),
    port: port.optional().describe('SSH port, default 22.'),
    user: z.string().min(1).optional().describe('Login user; default the user running netbench.'),
    key: path.optional().describe('Private key file (~/ allowed); without one, the ssh-agent at $SSH_AUTH_SOCK.'),
    passphrase: secret(z.string()).optional().describe('Key passphrase: a secret, never stored or shown; give it as ${env:NAME} or ${file:/path} (or use passphraseEnv).'),
    passphraseEnv: envName.optional().describe('Environment variable holding the key passphrase.'),
    agent: z.union([z.boolean(), path]).optional().describe('ssh-agent: true ($SSH_AUTH_SOCK), a socket path, or false. Default: only when no key is given.'),
    internalAddress: hostAddressSchema.optional().describe('Address the other hosts reach this one on (default address).'),
    zone: z.string().min(1).optional().describe('Zone label for results (e.g. a rack or data center).'),
    region: z.string().min(1).optional().describe('Region label for results.'),
    machineType: z.string().min(1).optional().describe('Machine type label for results.'),
    labels: z
      .record(z.string().regex(/^[A-Za-z0-9_.-]+$/), z.string())
      .optional()
      .describe('Extra labels on every sample (host_<role>_<key>).'),
    knownHosts: path.optional().describe('known_hosts file to verify the host key against (default ~/.ssh/known_hosts, /etc/ssh/ssh_known_hosts).'),
    hostKeys: z.array(z.string().min(1)).min(1).optional().describe('Pinned host keys instead of known_hosts: public key lines or SHA256: fingerprints.'),
    jump: jumpSchema.optional().describe('Bastion (jump host) the host is reached through.'),
    connectRetry: connectRetrySchema.optional().describe('Retries while the host does not answer (default 3 attempts).'),
    connectTimeout: z.number().positive().max(600).optional().describe('Seconds one connection attempt may take (default 10).'),
    congestionControl: congestionControlSchema
      .optional()
      .describe(
        'TCP congestion control the host must be using (net.ipv4.tcp_congestion_control); checked, not changed: netbench does not alter a machine-wide default it could not restore after a crash. Per-test alternatives: iperf3 and netperf `congestion`.',
      ),
  })
  .refine((host) => !(host.passphrase !== undefined && host.passphraseEnv !== undefined), {
    message: 'give passphrase or passphraseEnv, not both',
    path: ['passphraseEnv'],
  })
  .refine((host) => !(host.knownHosts !== undefined && host.hostKeys !== undefined), {
    message: 'give knownHosts or hostKeys, not both',
    path: ['hostKeys'],
  });

export type StaticHostConfig = z.infer<typeof hostSchema>;
export type JumpConfig = z.infer<typeof jumpSchema>;
