import { NetbenchError } from '@netbench/plugin-api';

/** Whether a connection string is a URI (`postgres://…`) rather than libpq's `key=value …` form. */
export const isUri = (text: string): boolean => /^postgres(?:ql)?:\/\//i.test(text.trim());

/** libpq keywords netbench maps onto node-postgres; anything else is refused by name. */
const KEYWORDS = ['host', 'hostaddr', 'port', 'user', 'password', 'dbname', 'sslmode', 'connect_timeout'] as const;
export type ConninfoKeyword = (typeof KEYWORDS)[number];

/**
 * A libpq keyword/value connection string (`host=db port=5432 password='a b'`):
 * values are bare words or single-quoted with `\'` and `\\` escapes, spaces
 * around `=` allowed (libpq's rules). Errors never contain a value.
 */
export function parseConninfo(text: string): Partial<Record<ConninfoKeyword, string>> {
  const out: Partial<Record<ConninfoKeyword, string>> = {};
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
  };
  for (skipSpace(); i < text.length; skipSpace()) {
    const keyStart = i;
    while (i < text.length && /[A-Za-z0-9_]/.test(text[i]!)) i += 1;
    const key = text.slice(keyStart, i);
    skipSpace();
    if (key === '' || text[i] !== '=') throw new NetbenchError(`postgres url: expected keyword=value at character ${keyStart + 1} of the connection string`);
    i += 1;
    skipSpace();
    let value = '';
    if (text[i] === "'") {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new NetbenchError(`postgres url: unterminated quoted value of ${key}`);
        const c = text[i]!;
        if (c === '\\' && i + 1 < text.length) {
          value += text[i + 1];
          i += 2;
          continue;
        }
        if (c === "'") {
          i += 1;
          break;
        }
        value += c;
        i += 1;
      }
    } else {
      while (i < text.length && !/\s/.test(text[i]!)) {
        if (text[i] === '\\' && i + 1 < text.length) i += 1;
        value += text[i];
        i += 1;
      }
    }
    if (!(KEYWORDS as readonly string[]).includes(key)) throw new NetbenchError(`postgres url: keyword ${key} is not supported (netbench reads ${KEYWORDS.join(', ')})`);
    out[key as ConninfoKeyword] = value;
  }
  return out;
}
