/** Characters a POSIX shell never treats specially in any position (no `=`: a first word `A=b` is an assignment); such words need no quotes, which keeps logged commands readable. */
const SAFE_WORD_RE = /^[A-Za-z0-9_@%+:,./-]+$/;
/** Names `export` accepts; anything else could smuggle shell syntax into the command line. */
const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * One argument as one word of a POSIX shell command line: single-quoted, with
 * each `'` written as `'\''` (close, escaped quote, reopen). Inside single
 * quotes nothing is special — not `$`, backticks, `;`, `*`, `\` or newlines —
 * so the remote shell hands the exact bytes to the program as one argument.
 */
export function shellQuote(arg: string): string {
  if (arg.includes('\0')) throw new Error('an argument cannot contain a NUL byte (the remote program could not receive it)');
  if (SAFE_WORD_RE.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** An argv array as one shell command line, every element quoted. */
export function shellCommand(argv: readonly string[]): string {
  if (argv.length === 0) throw new Error('empty argv');
  return argv.map(shellQuote).join(' ');
}

/** `export NAME='value';` for each variable; names are checked, values quoted. */
export function shellExports(env: Readonly<Record<string, string>> | undefined): string {
  if (!env) return '';
  return Object.entries(env)
    .map(([name, value]) => {
      if (!ENV_NAME_RE.test(name)) throw new Error(`invalid environment variable name ${JSON.stringify(name)}`);
      return `export ${name}=${shellQuote(value)}; `;
    })
    .join('');
}
