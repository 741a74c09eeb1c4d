const UNSAFE_NAME_RE = /[^A-Za-z0-9._-]+/g;

/**
 * The one rule for raw output names: a tool names what it saves
 * (`ctx.saveRaw('ping-forward.txt', …)`) and the run keeps it as
 * `raw/<trial>-<name>` (`<trial>` is the trial id, `t0001-retry1` on a
 * retry). So a name never repeats the trial id. Unsafe characters become `_`;
 * the name cannot leave the raw folder.
 */
export function rawFileName(trial: string, name: string): string {
  const safe = name.replace(UNSAFE_NAME_RE, '_').replace(/^\.+/, '_') || 'output';
  return `${trial}-${safe}`;
}
