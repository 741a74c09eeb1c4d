import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * A user the lab sshd can log in as and Azure would take as `adminUsername`
 * (Azure refuses `root`, `admin`, `test`, …). Not root: the user running the
 * tests. Root: a local system user `nbtazure` (shell /bin/sh, no home),
 * added once with useradd (password `*`: no password login, yet not
 * "locked", which sshd without PAM would refuse); the lab sshd reads its authorized key from the
 * test's own file, so the account needs nothing else.
 */
export function labLoginUser(): string {
  const me = userInfo().username;
  if (process.getuid?.() !== 0) return me;
  const name = 'nbtazure';
  try {
    execFileSync('id', ['-u', '--', name], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/bin/sh', '--password', '*', '--', name], { stdio: 'ignore' });
  }
  return name;
}

/**
 * sshd reads `AuthorizedKeysFile` as the user logging in: let that user (not
 * root) reach the lab sshd's `authorized_keys` in `dir` (search on the
 * folder, read on the public key file only).
 */
export function letLabUserReadKeys(dir: string): void {
  if (process.getuid?.() !== 0) return;
  chmodSync(dir, 0o711);
  chmodSync(join(dir, 'authorized_keys'), 0o644);
}
