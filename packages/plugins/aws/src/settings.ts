/**
 * Settings that are not per host: read from the environment so that
 * `netbench cleanup` in a fresh process sees the same ones.
 *
 * - `NETBENCH_AWS_ENDPOINT`: send every AWS API call here (an emulator such as moto).
 *   A host's `endpoint` field wins for its own resources (and is kept in the ledger).
 * - `NETBENCH_AWS_REGIONS`: comma-separated regions `netbench cleanup --all` searches
 *   (default: `AWS_REGION`/`AWS_DEFAULT_REGION`, else every region the account has enabled).
 * - `NETBENCH_AWS_PRICES`: a JSON file whose entries override the shipped price table.
 * - `NETBENCH_SSH_FROM`: CIDR allowed to reach port 22 (default: this machine's public address, detected).
 * - `NETBENCH_MY_IP_URL`: where that address is asked (default https://checkip.amazonaws.com).
 * - `NETBENCH_AWS_SSH_ADDRESS`: `host[:port]` to connect to instead of every instance's public
 *   address — for emulators, whose instances are not machines.
 */
export interface AwsSettings {
  readonly endpoint?: string;
  readonly regions?: readonly string[];
  readonly pricesFile?: string;
  readonly sshFrom?: string;
  readonly myIpUrl: string;
  readonly sshAddress?: { readonly host: string; readonly port?: number };
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): AwsSettings {
  const nonEmpty = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : undefined);
  const regions = nonEmpty(env.NETBENCH_AWS_REGIONS)
    ?.split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const address = nonEmpty(env.NETBENCH_AWS_SSH_ADDRESS);
  return {
    endpoint: nonEmpty(env.NETBENCH_AWS_ENDPOINT),
    regions,
    pricesFile: nonEmpty(env.NETBENCH_AWS_PRICES),
    sshFrom: nonEmpty(env.NETBENCH_SSH_FROM),
    myIpUrl: nonEmpty(env.NETBENCH_MY_IP_URL) ?? 'https://checkip.amazonaws.com',
    sshAddress: address ? parseHostPort(address) : undefined,
  };
}

function parseHostPort(text: string): { host: string; port?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1]!, ...(bracketed[2] ? { port: Number(bracketed[2]) } : {}) };
  const plain = /^([^:]+)(?::(\d+))?$/.exec(text);
  if (plain) return { host: plain[1]!, ...(plain[2] ? { port: Number(plain[2]) } : {}) };
  return { host: text };
}

/** Regions named by the environment for account-wide searches, if any. */
export function configuredRegions(settings: AwsSettings, env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  if (settings.regions?.length) return [...settings.regions];
  const single = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  return single ? [single] : undefined;
}
