import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The "local user" of the trust model (docs/security.md): someone who may
 * write in `/dev/shm` and would like a root run's keys. Only root can act as
 * another user, so tests that need one are skipped without root.
 */
export const isRoot = process.geteuid?.() === 0;
export const OTHER_USER = 'nbtshm';

/** Root only: the unprivileged user, added once (a system user: no home, no password login). */
export function otherUser(): string {
  if (spawnSync('id', ['-u', '--', OTHER_USER], { stdio: 'ignore' }).status !== 0) {
    execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', '--', OTHER_USER], { stdio: 'ignore' });
  }
  return OTHER_USER;
}

export const otherUid = (): number => Number(execFileSync('id', ['-u', '--', otherUser()], { encoding: 'utf8' }).trim());

/** Run `argv` as the other user (root only), `input` on its stdin. */
export function asOtherUser(argv: readonly string[], input?: string): SpawnSyncReturns<string> {
  return spawnSync('runuser', ['-u', otherUser(), '--', ...argv], { encoding: 'utf8', ...(input !== undefined ? { input } : {}) });
}

/** A private stand-in for `/dev/shm`: sticky and writable by everyone, as it is (the real one holds other runs' files). */
export function sharedStandIn(prefix: string): string {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), prefix));
  chmodSync(dir, 0o1777);
  return dir;
}
