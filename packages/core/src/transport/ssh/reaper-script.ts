/**
 * The environment variable every command started over a connection carries;
 * its value is the connection's session folder on the host. The reaper only
 * kills processes that still carry it, so a recycled pid is never touched.
 */
export const SESSION_ENV = 'NETBENCH_SSH_SESSION';

/**
 * Where a connection keeps the pids of what it started, as a shell
 * expression: the same for the reaper and every command of the connection,
 * known before anything runs (the token is random, so no one else can
 * predict or pre-create it).
 */
export function sessionDirExpression(token: string): string {
  if (!/^[0-9a-f]{8,64}$/.test(token)) throw new Error('session token must be hex');
  return `"\${TMPDIR:-/tmp}/netbench-ssh.${token}"`;
}

/**
 * Runs for the life of the connection, on its own channel. It makes the
 * private session folder, prints three lines (the OS name, the TCP congestion
 * control, the CPU count; a line is empty where the host cannot tell), then reads `SIGNAL PID` lines
 * and signals that process group if it is one of ours — the way `kill`
 * reaches a remote process: sshd ignores SSH `signal` requests for root
 * logins, and a new channel for `kill` may not be available (MaxSessions).
 * When its standard input closes — we close the channel, *or* the connection
 * drops (netbench killed, network gone) — it stops every process group
 * netbench started over this connection (TERM, up to 2 s grace, KILL) and
 * removes the folder. Without it, a server such as `netserver -D` would
 * outlive a crashed run on a machine we do not own. Fixed text but for the
 * hex token: no spec value is ever part of it, and what it reads is checked.
 */
export function reaperScript(token: string): string {
  return [
    // The connection may drop before the OS line is printed: a write to the dead pipe must not end the reaper.
    "trap '' PIPE HUP",
    `d=${sessionDirExpression(token)}`,
    'mkdir -p -m 700 "$d" || exit 1',
    `os=$(sed -n 's/^PRETTY_NAME=//p' /etc/os-release 2>/dev/null | tr -d '"')`,
    // Facts the host's plugin would otherwise ask for with commands of their own (a round trip each).
    'cc=$(cat /proc/sys/net/ipv4/tcp_congestion_control 2>/dev/null)',
    'cpus=$(nproc 2>/dev/null)',
    `mine() { [ -r "/proc/$1/environ" ] && tr '\\000' '\\n' < "/proc/$1/environ" 2>/dev/null | grep -qxF "${SESSION_ENV}=$d"; }`,
    `printf '%s\\n' "$os" "$cc" "$cpus"`,
    // `SIGNAL N`: command N of this connection. Mark it cancelled first, then read its pid:
    // either the command sees the mark before exec, or we see its pid (it writes the pid first).
    'while read -r sig n; do',
    `  case "$sig" in ''|*[!A-Z0-9]*) continue;; esac`,
    `  case "$n" in ''|*[!0-9]*) continue;; esac`,
    '  : > "$d/x$n"',
    '  pid=$(cat "$d/c$n" 2>/dev/null)',
    `  case "$pid" in ''|*[!0-9]*) continue;; esac`,
    // Until its `exec`, the command's /proc environ lacks the mark: give it a moment rather than give up.
    '  i=0; while [ $i -lt 10 ] && [ -d "/proc/$pid" ]; do',
    `    if mine "$pid"; then kill -s "$sig" -- "-$pid" 2>/dev/null || kill -s "$sig" "$pid" 2>/dev/null; break; fi`,
    '    sleep 0.05; i=$((i+1))',
    '  done',
    'done',
    `alive() { for p in $(cat "$d/pids" 2>/dev/null); do mine "$p" && return 0; done; return 1; }`,
    `sweep() { for p in $(cat "$d/pids" 2>/dev/null); do mine "$p" && { kill -s "$1" -- "-$p" 2>/dev/null || kill -s "$1" "$p" 2>/dev/null; }; done; }`,
    'sweep TERM',
    'i=0; while [ $i -lt 20 ] && alive; do sleep 0.1; i=$((i+1)); done',
    'sweep KILL',
    'rm -rf "$d"',
  ].join('\n');
}

/** Marks the line on standard error that carries the remote pid; the transport strips it. */
export const PID_MARK = 'NETBENCH-PID ';
