import { createInterface } from 'node:readline/promises';
import { type OfferedHostKey, trustHost } from '@netbench/core';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';

export default class HostsTrust extends NetbenchCommand {
  static override summary = 'Record an SSH host key in known_hosts once you have confirmed its fingerprint.';
  static override description = [
    'Fetches the host key HOST offers, prints its SHA256 fingerprint and asks before appending it to known_hosts',
    '(default ~/.ssh/known_hosts; a missing folder is created, owner-only). Check the fingerprint on the machine first:',
    'ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub. For scripts, --yes --fingerprint SHA256:... records the key only',
    'if it matches. A different key already recorded for the host is never replaced.',
    'Exit codes: 0 recorded or already known · 1 declined, mismatch or unreachable · 2 bad flags.',
  ].join(' ');
  static override examples = ['<%= config.bin %> hosts trust 203.0.113.7', '<%= config.bin %> hosts trust db.internal --port 2222 --yes --fingerprint SHA256:4vB7yXJm0...'];
  static override args = { host: Args.string({ required: true, description: 'host name or IP address' }) };
  static override flags = {
    port: Flags.integer({ min: 1, max: 65_535, default: 22, summary: 'SSH port.' }),
    'known-hosts': Flags.string({ summary: 'known_hosts file to record in (default ~/.ssh/known_hosts).' }),
    fingerprint: Flags.string({ summary: 'The SHA256:... fingerprint you checked; the key must match it.' }),
    yes: Flags.boolean({ summary: 'Do not ask (needs --fingerprint).', dependsOn: ['fingerprint'] }),
  };

  async run() {
    const { args, flags } = await this.parse(HostsTrust);
    const result = await trustHost({
      address: args.host,
      port: flags.port,
      ...(flags['known-hosts'] !== undefined ? { knownHosts: flags['known-hosts'] } : {}),
      ...(flags.fingerprint !== undefined ? { fingerprint: flags.fingerprint } : {}),
      ...(flags.yes ? {} : { confirm: ask }),
    });
    const name = `${result.address}${result.port === 22 ? '' : `:${result.port}`}`;
    if (result.status === 'declined') {
      process.exitCode = 1;
      this.log(`not recorded: ${name} stays untrusted`);
    } else if (result.status === 'already-trusted') {
      this.log(`${name}: ${result.keyType} ${result.fingerprint} is already in ${result.file}`);
    } else {
      this.log(`recorded ${name} ${result.keyType} ${result.fingerprint} in ${result.file}`);
    }
    return result;
  }
}

/** Shows the key on stderr and reads y/N from stdin (no answer, e.g. stdin closed, is no). */
async function ask(key: OfferedHostKey, file: string): Promise<boolean> {
  process.stderr.write(
    [
      `${key.address} port ${key.port} offers ${key.keyType} key ${key.fingerprint}`,
      "Compare it with the machine's own (there: ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub).",
      `Record it in ${file}? [y/N] `,
    ].join('\n'),
  );
  const reader = createInterface({ input: process.stdin, terminal: false });
  try {
    const answer = await new Promise<string>((resolve) => {
      reader.once('line', resolve);
      reader.once('close', () => resolve(''));
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    reader.close();
  }
}
