import { access, constants } from 'node:fs/promises';
import type { HostRequest } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import type { StaticHostConfig } from './host-schema.js';
import { expandHome } from './ssh-options.js';

async function readable(path: string): Promise<string | undefined> {
  try {
    await access(path, constants.R_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

/**
 * What can be checked without connecting: key and known_hosts files exist,
 * passphrase variables are set, some way to authenticate exists. Every
 * problem of every host at once.
 */
export async function checkRequests(requests: readonly HostRequest<StaticHostConfig>[]): Promise<void> {
  const problems: string[] = [];
  for (const { name, config } of requests) {
    const at = `hosts.${name}`;
    const file = async (field: string, path: string | undefined, what: string) => {
      if (path === undefined) return;
      const why = await readable(expandHome(path));
      if (why) problems.push(`${at}.${field}: cannot read ${what} ${path} (${why})`);
    };
    await file('key', config.key, 'private key');
    await file('knownHosts', config.knownHosts, 'known_hosts file');
    await file('jump.key', config.jump?.key, 'private key');
    await file('jump.knownHosts', config.jump?.knownHosts, 'known_hosts file');
    for (const [field, env] of [
      ['passphraseEnv', config.passphraseEnv],
      ['jump.passphraseEnv', config.jump?.passphraseEnv],
    ] as const) {
      if (env !== undefined && process.env[env] === undefined) problems.push(`${at}.${field}: environment variable ${env} is not set`);
    }
    const agentSocket = typeof config.agent === 'string' ? config.agent : process.env.SSH_AUTH_SOCK;
    if (config.agent === true && !process.env.SSH_AUTH_SOCK) problems.push(`${at}.agent: SSH_AUTH_SOCK is not set (no ssh-agent running?)`);
    if (config.key === undefined && (config.agent === false || !agentSocket)) {
      problems.push(`${at}: no way to authenticate: give key (a private key file) or run an ssh-agent (SSH_AUTH_SOCK is not set)`);
    }
    if (config.jump && config.jump.key === undefined && !process.env.SSH_AUTH_SOCK) {
      problems.push(`${at}.jump: no way to authenticate to the bastion: give jump.key or run an ssh-agent`);
    }
  }
  if (problems.length) throw new NetbenchError(`static hosts:\n  ${problems.join('\n  ')}`);
}
