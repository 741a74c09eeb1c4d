// Tests of "not root: install through sudo -n" must hold on machines with
// and without sudo. `sudoState` says which this host is (by running sudo,
// not by guessing), and `pathWithout` + `withPath` give a host on which sudo
// is absent whatever the machine has, so both branches run everywhere.
import { chmodSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { ExecOptions, Host, SpawnOptions } from '../plugin/host.js';
import { isMissing, runOnHost } from '../tool-kit/run-on-host.js';

/** What `sudo -n true` does for the host's user: not there, asks for a password, or just works. */
export type SudoState = 'absent' | 'needs-password' | 'passwordless';

const PASSWORD_RE = /a password is required|a terminal is required/;

/** Runs `sudo -n true` on the host. Throws on any other answer, so a test never guesses. */
export async function sudoState(host: Host): Promise<SudoState> {
  const outcome = await runOnHost(host, ['sudo', '-n', 'true'], { timeoutMs: 30_000 });
  if (isMissing(outcome)) return 'absent';
  if (outcome.code === 0) return 'passwordless';
  if (PASSWORD_RE.test(outcome.stderr)) return 'needs-password';
  throw new Error(`sudo -n true on ${host.name}: unexpected answer (exit ${outcome.code}): ${outcome.stderr.trim()}`);
}

/** A PATH (one folder, readable by every user) holding every program of `path` except `programs`. */
export interface PathWithout {
  readonly path: string;
  dispose(): void;
}

/**
 * Links every executable found on `path` (first one wins, as a shell would
 * pick) into a fresh folder, except `programs`: a PATH on which, say,
 * `sudo` does not exist, while `id`, `env` and `setpriv` still do.
 */
export function pathWithout(programs: readonly string[], path = process.env['PATH'] ?? '/usr/bin:/bin'): PathWithout {
  const dir = mkdtempSync(join(tmpdir(), 'nbt-path-'));
  // Other users (the `nobody` a test drops to) must be able to look programs up in it.
  chmodSync(dir, 0o755);
  for (const folder of path.split(delimiter)) {
    if (folder === '' || !existsSync(folder)) continue;
    for (const name of readdirSync(folder)) {
      if (programs.includes(name) || existsSync(join(dir, name))) continue;
      const file = join(folder, name);
      try {
        if (!statSync(file).isFile() || (statSync(file).mode & 0o111) === 0) continue;
        symlinkSync(realpathSync(file), join(dir, name));
      } catch {
        // A dangling link or a file that vanished: not a program to offer.
      }
    }
  }
  return { path: dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The host with every command run under `PATH=path` (the transport sets it, as `ExecOptions.env`). */
export function withPath<H extends Host>(host: H, path: string): H {
  const env = (given?: Readonly<Record<string, string>>) => ({ ...given, PATH: path });
  // Delegates everything else to the host itself (its fields may live on a prototype).
  const wrapped = Object.create(host) as H;
  return Object.assign(wrapped, {
    exec: (argv: readonly string[], options?: ExecOptions) => host.exec(argv, { ...options, env: env(options?.env) }),
    spawn: (argv: readonly string[], options?: SpawnOptions) => host.spawn(argv, { ...options, env: env(options?.env) }),
  });
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The error `installAptPackage(host, aptPackage)` must end in for a normal
 * user in this sudo state, or `undefined` when passwordless sudo lets it
 * install (then it must succeed).
 */
export function aptSudoRefusal(state: SudoState, aptPackage: string, hostName: string): RegExp | undefined {
  const pkg = escapeRe(aptPackage);
  const host = escapeRe(hostName);
  if (state === 'absent') return new RegExp(`^cannot install ${pkg} on host ${host} with sudo -n apt-get \\(not root\\): .*sudo.*; install ${pkg} by hand$`);
  if (state === 'needs-password')
    return new RegExp(`^cannot install ${pkg} on host ${host}: sudo needs a password \\(netbench runs sudo -n, never prompts\\); .*install ${pkg} by hand$`);
  return undefined;
}
