/** ssh2's exports (CommonJS: the default export of its ESM wrapper). */
type Ssh2 = typeof import('ssh2');

let loaded: Promise<Ssh2> | undefined;

/**
 * ssh2 on first use only: most commands (validate, plan, local runs) never
 * open an SSH connection and should not pay for loading it at start-up.
 */
export function loadSsh2(): Promise<Ssh2> {
  loaded ??= import('ssh2').then((mod) => (mod as unknown as { default: Ssh2 }).default);
  return loaded;
}
