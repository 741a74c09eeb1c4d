import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { HostRequest, SshHostOptions, SshJumpOptions } from '@netbench/plugin-api';
import type { JumpConfig, StaticHostConfig } from './host-schema.js';

/** `~/x` → the home folder; other paths as given (relative ones from where netbench runs). */
export function expandHome(path: string): string {
  return path === '~' ? homedir() : path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
}

export function defaultUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'root';
  }
}

/** The passphrase from the spec or from the environment variable it names. */
export function passphraseOf(config: { passphrase?: string; passphraseEnv?: string }): string | undefined {
  return config.passphrase ?? (config.passphraseEnv ? process.env[config.passphraseEnv] : undefined);
}

function agentOf(agent: boolean | string | undefined): string | false | undefined {
  if (agent === true) return process.env.SSH_AUTH_SOCK ?? false;
  if (agent === false) return false;
  return agent === undefined ? undefined : expandHome(agent);
}

function jumpOptions(jump: JumpConfig, user: string): SshJumpOptions {
  return {
    address: jump.address,
    port: jump.port,
    user: jump.user ?? user,
    privateKeyPath: jump.key ? expandHome(jump.key) : undefined,
    passphrase: passphraseOf(jump),
    hostKey: { mode: 'known-hosts', file: jump.knownHosts ? expandHome(jump.knownHosts) : undefined },
  };
}

/** The transport's options for one static host. */
export function sshOptions(request: HostRequest<StaticHostConfig>): SshHostOptions {
  const config = request.config;
  const user = config.user ?? defaultUser();
  const internal = config.internalAddress ?? config.address;
  return {
    id: request.id,
    name: request.name,
    cloud: request.cloud,
    zone: config.zone,
    region: config.region,
    machineType: config.machineType,
    internalIp: internal,
    // A distinct connect address is the host's public face (on-prem NAT, a cloud VM's external IP).
    externalIp: internal !== config.address ? config.address : undefined,
    address: config.address,
    port: config.port,
    user,
    privateKeyPath: config.key ? expandHome(config.key) : undefined,
    passphrase: passphraseOf(config),
    agent: agentOf(config.agent),
    hostKey: config.hostKeys
      ? { mode: 'pinned', keys: config.hostKeys, source: `hosts.${request.name}.hostKeys` }
      : { mode: 'known-hosts', file: config.knownHosts ? expandHome(config.knownHosts) : undefined },
    jump: config.jump ? jumpOptions(config.jump, user) : undefined,
    connectRetry: config.connectRetry
      ? { attempts: config.connectRetry.attempts, initialDelayMs: config.connectRetry.initialDelayMs ?? 500, maxDelayMs: config.connectRetry.maxDelayMs ?? 5000 }
      : undefined,
    readyTimeoutMs: config.connectTimeout !== undefined ? Math.round(config.connectTimeout * 1000) : undefined,
  };
}
