import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { NetbenchError } from '@netbench/plugin-api';

/** Colon-separated kubeconfig files (like KUBECONFIG) the user vouches for, though a spec names them. */
export const TRUSTED_KUBECONFIGS_ENV = 'NETBENCH_TRUSTED_KUBECONFIGS';

const canonical = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/**
 * The kubeconfig files the user chose outside any spec: each of KUBECONFIG,
 * `~/.kube/config`, and each of NETBENCH_TRUSTED_KUBECONFIGS (symlinks
 * resolved).
 */
export function userKubeconfigs(env: NodeJS.ProcessEnv = process.env): Set<string> {
  const listed = [env['KUBECONFIG'], env[TRUSTED_KUBECONFIGS_ENV]].flatMap((value) => (value ?? '').split(delimiter)).filter((p) => p !== '');
  return new Set([...listed, join(homedir(), '.kube', 'config')].map(canonical));
}

/**
 * Refuses a kubeconfig a spec named (not the user's own, see
 * `userKubeconfigs`) whose users would run or read something of the
 * runner's: an `exec` credential command or an `auth-provider` (both run
 * programs or read token caches as the runner), or a `token-file` (the client
 * library reads the file and sends it as a bearer token to whatever server
 * the file names). Static certificates, tokens and passwords written in the
 * file are its author's own and stay allowed.
 */
export function checkSpecKubeconfig(file: string, config: KubeConfig, env: NodeJS.ProcessEnv = process.env): void {
  if (userKubeconfigs(env).has(canonical(file))) return;
  // The library has already replaced a token-file by its contents: a token the file's text does not hold came from elsewhere.
  const text = readFileSync(file, 'utf8');
  for (const user of config.getUsers()) {
    const what = user.exec ? 'an exec credential command' : user.authProvider ? 'an auth-provider' : user.token && !text.includes(user.token) ? 'a token-file' : undefined;
    if (what === undefined) continue;
    throw new NetbenchError(
      `kubeconfig ${file} (named by the spec) has ${what} for user '${user.name}': netbench runs credential commands and reads token files only from your own kubeconfig (KUBECONFIG, ~/.kube/config); ` +
        `if you trust this file, add it to ${TRUSTED_KUBECONFIGS_ENV} (e.g. ${TRUSTED_KUBECONFIGS_ENV}=${file} netbench run ...)`,
    );
  }
}
