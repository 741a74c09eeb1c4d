/**
 * Shell helpers used through `Host.exec` (argv arrays): each script is a
 * constant and every value reaches it as a positional parameter, never as
 * shell text, so the same commands work over `ip netns exec`, a local child
 * process and SSH.
 */

/**
 * Start a daemon detached from the caller (`setsid -f`), recording `pid starttime`
 * (start time guards against a reused pid at teardown) in `$1`, its output in `$2`.
 * With `$3 = 1` it first mounts a private tmpfs on `/run` (charon's pid file and
 * sockets are fixed there, so two charons on one machine would collide); the caller
 * wraps it in `unshare --mount` for that.
 */
export const DAEMON_SCRIPT = [
  'pidf=$1; log=$2; priv=$3; shift 3',
  'if [ "$priv" = 1 ]; then mount -t tmpfs -o mode=0700 netbench /run || exit 1; fi',
  'echo "$$ $(sed "s/.*) //" /proc/$$/stat | cut -d" " -f20)" > "$pidf"',
  'exec "$@" </dev/null >>"$log" 2>&1',
].join('\n');

export function daemonArgv(pidFile: string, logFile: string, argv: readonly string[], privateRun = false): string[] {
  const wrapper = ['sh', '-c', DAEMON_SCRIPT, 'sh', pidFile, logFile, privateRun ? '1' : '0', ...argv];
  return privateRun ? ['setsid', '-f', 'unshare', '--mount', '--propagation', 'private', '--', ...wrapper] : ['setsid', '-f', ...wrapper];
}

/**
 * Shell functions for the run's tunnel directories, on whatever host they are
 * (the same rule as `run-id/own-dir.ts`, for hosts reached by a transport):
 * `own PATH [MODE]` prints why PATH is not a directory of this user's that no
 * one else may write (or not of exactly MODE) and fails; `refuse PATH WHY
 * RULE` is the error. A directory a local user made first under a run id they
 * saw in `/dev/shm` would let them read the keys, or steer a root teardown.
 */
export const OWN_DIR_SH = [
  'own() {',
  '  if [ -L "$1" ]; then echo "it is a symbolic link"; return 1; fi',
  '  if [ ! -d "$1" ]; then echo "it is not a directory"; return 1; fi',
  '  set -- "$1" "$2" $(stat -c "%u %U %a" -- "$1")',
  '  if [ "$3" != "$(id -u)" ]; then echo "it is owned by $4 (uid $3) with mode 0$5"; return 1; fi',
  '  if [ -n "$2" ] && [ "$5" != "$2" ]; then echo "its mode is 0$5, not 0$2"; return 1; fi',
  '  if [ -z "$2" ] && [ $((0$5 & 022)) != 0 ]; then echo "its mode 0$5 lets others write in it"; return 1; fi',
  '}',
  'refuse() {',
  '  echo "refusing $1: $2; netbench makes it itself, owned by the user running it (uid $(id -u)), $3. Someone else made this one and could read or change what netbench would put in it: check what it holds, remove it (rm -rf -- $1) and try again" >&2',
  '  exit 3',
  '}',
].join('\n');

/**
 * Write stdin to `$1`, readable by the owner only: always a new file (one
 * there already, or a link, is removed first, never written through).
 */
export const WRITE_PRIVATE_SCRIPT = 'umask 077 && rm -f -- "$1" && set -C && cat > "$1"';
export const writePrivateArgv = (path: string): string[] => ['sh', '-c', WRITE_PRIVATE_SCRIPT, 'sh', path];

/**
 * Make the run's tunnel root and this end's directory, both 0700, each
 * exclusively; one there already is used only when it is this user's own
 * (the root writable by no one else, the end exactly 0700), else refused.
 */
export const MAKE_DIR_SCRIPT = [
  OWN_DIR_SH,
  'root=$1; dir=$2',
  'umask 077',
  // A failure other than "it exists" (no /dev/shm) is mkdir's own error.
  'mk() { mkdir -m 0700 -- "$1" 2>/dev/null && return 0; [ -e "$1" ] || [ -L "$1" ] || { mkdir -m 0700 -- "$1"; exit 1; }; return 1; }',
  // The root may be the run's own RAM directory (its machine lock, 0755): tightened once it is known to be ours.
  'if ! mk "$root"; then why=$(own "$root") || refuse "$root" "$why" "writable by no one else"; chmod 0700 -- "$root" || exit 1; fi',
  'if ! mk "$dir"; then why=$(own "$dir" 700) || refuse "$dir" "$why" "mode 0700"; fi',
].join('\n');
export const makeDirArgv = (root: string, dir: string): string[] => ['sh', '-c', MAKE_DIR_SCRIPT, 'sh', root, dir];

/**
 * Undo one end from its directory alone (refused, exit 3, when the directory
 * or the run's root is not this user's own: `OWN_DIR_SH`): stop every daemon whose pid file is
 * there (TERM, then KILL after 3 s; only when its start time still matches),
 * delete the interface `$2` when `$3 = 1` (a kernel link, which no daemon owns),
 * remove the WireGuard socket `$4` and the inner address `$5` from `lo` (kernel ESP) if given, then the directory and, when it is
 * empty, the run's root. Succeeds when there is nothing left to undo.
 */
export const TEARDOWN_SCRIPT = [
  OWN_DIR_SH,
  'dir=$1; iface=$2; kernel=$3; sock=$4; loaddr=$5',
  // Pid files are trusted only in a directory netbench made: one someone else made could name any process.
  'if [ -e "$dir" ] || [ -L "$dir" ]; then',
  '  why=$(own "${dir%/*}") || refuse "${dir%/*}" "$why" "writable by no one else"',
  '  why=$(own "$dir" 700) || refuse "$dir" "$why" "mode 0700"',
  'fi',
  'alive() { [ -r "/proc/$1/stat" ] && [ "$(sed "s/.*) //" "/proc/$1/stat" | cut -d" " -f20)" = "$2" ] && ! grep -q "^State:.*Z" "/proc/$1/status"; }',
  'each() { for f in "$dir"/*.pid; do [ -f "$f" ] || continue; read -r pid start < "$f" || continue; alive "$pid" "$start" && "$@" "$pid"; done; }',
  'if [ -d "$dir" ]; then',
  '  each kill -TERM',
  '  i=0; while [ $i -lt 30 ]; do left=0; count() { left=1; }; each count; [ $left = 0 ] && break; sleep 0.1; i=$((i+1)); done',
  '  each kill -KILL',
  'fi',
  'if [ "$kernel" = 1 ] && ip link show dev "$iface" >/dev/null 2>&1; then ip link del dev "$iface" || exit 1; fi',
  'if [ -n "$sock" ]; then rm -f -- "$sock"; fi',
  'if [ -n "$loaddr" ] && ip -o address show dev lo | grep -qF " $loaddr/"; then ip address del "$loaddr/32" dev lo || exit 1; fi',
  'rm -rf -- "$dir" || exit 1',
  'rmdir -- "${dir%/*}" 2>/dev/null',
  'exit 0',
].join('\n');

export interface EndpointUndo {
  readonly dir: string;
  readonly iface: string;
  /** The interface is a kernel link (kernel WireGuard): delete it. */
  readonly kernelLink: boolean;
  /** wireguard-go's UAPI socket. */
  readonly socket?: string;
  /** Inner address put on `lo` (kernel ESP). */
  readonly loAddress?: string;
}

export const teardownArgv = (undo: EndpointUndo): string[] => [
  'sh',
  '-c',
  TEARDOWN_SCRIPT,
  'sh',
  undo.dir,
  undo.iface,
  undo.kernelLink ? '1' : '0',
  undo.socket ?? '',
  undo.loAddress ?? '',
];
