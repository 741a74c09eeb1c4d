import { PID_MARK, SESSION_ENV, sessionDirExpression } from './reaper-script.js';
import { shellCommand, shellExports } from './shell-quote.js';

/**
 * The command line sent for `argv`: note the shell's pid (the program keeps
 * it through `exec`, and sshd made it a process group leader) in the
 * connection's session folder, where the reaper finds it; report it on stderr
 * for `kill`; set the environment; then `exec` the program with every
 * argument single-quoted. Builtins only before the `exec`: no extra process.
 */
export function remoteCommand(argv: readonly string[], env: Readonly<Record<string, string>> | undefined, session: { token: string; command: number } | undefined): string {
  const parts: string[] = [];
  if (session !== undefined) {
    const n = session.command;
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`invalid command number ${n}`);
    // The folder may not exist yet when a command races the reaper's mkdir. The pid is written
    // before the cancel mark is checked: see the reaper, which marks before it reads the pid.
    parts.push(
      `d=${sessionDirExpression(session.token)}; [ -d "$d" ] || mkdir -p -m 700 "$d"; export ${SESSION_ENV}="$d"; `,
      `echo $$ >> "$d/pids"; echo $$ > "$d/c${n}"; [ -e "$d/x${n}" ] && exit 143; `,
    );
  }
  parts.push(`printf '${PID_MARK}%s\\n' $$ >&2; `, shellExports(env), `exec ${shellCommand(argv)}`);
  return parts.join('');
}

/** `kill` for a remote process group (pid from the PID line), falling back to the process alone. */
export function killCommand(pid: number, signal: string): string {
  if (!Number.isSafeInteger(pid) || pid <= 1) throw new Error(`refusing to signal pid ${pid}`);
  const name = signal.replace(/^SIG/, '');
  if (!/^[A-Z0-9]+$/.test(name)) throw new Error(`invalid signal ${JSON.stringify(signal)}`);
  return `kill -s ${name} -- -${pid} 2>/dev/null || kill -s ${name} ${pid} 2>/dev/null; true`;
}
