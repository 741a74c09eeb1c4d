import { execFileSync } from 'node:child_process';

/** An unprivileged user besides root, for tests of what another user can plant or read. */
export interface OtherUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

export const OTHER_USER = 'nb-sec-other';

/** Root only: adds the user (no home, no login) when it does not exist yet; kept for the next test file. */
export function otherUser(name: string = OTHER_USER): OtherUser {
  const id = (flag: string) => Number(execFileSync('id', [flag, '--', name], { encoding: 'utf8' }).trim());
  try {
    return { name, uid: id('-u'), gid: id('-g') };
  } catch {
    try {
      execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', '--', name], { stdio: 'ignore' });
    } catch {
      // Another test file added it meanwhile.
    }
    return { name, uid: id('-u'), gid: id('-g') };
  }
}

/** Run a command as that user (runuser: no password, root only). */
export function runAs(user: OtherUser, argv: readonly string[]): string {
  return execFileSync('runuser', ['-u', user.name, '--', ...argv], { encoding: 'utf8' });
}
