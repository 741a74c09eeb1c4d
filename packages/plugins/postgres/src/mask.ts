import { isUri, parseConninfo } from './conninfo.js';

/** Replace every secret in `text` (raw and URL-encoded) with `***`. */
export function maskSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let masked = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) masked = masked.split(form).join('***');
  }
  return masked;
}

// Scheme, then the authority up to the first `/`, `?` or `#` (as WHATWG URL and node-postgres read it).
const AUTHORITY_RE = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i;
// A `password` keyword of a conninfo string: a quoted value (with \' escapes) or a bare word.
const CONNINFO_PASSWORD_RE = /(\bpassword\s*=\s*)(?:'(?:\\.|[^'\\])*'?|(?:\\.|[^\s\\])*)/gi;

/**
 * A connection string fit to show: the password replaced by `***`, in a URI
 * (`user:***@host`, `?password=***`) or a keyword/value string (`password=***`).
 * In a URI the user information ends at the *last* `@` of the authority, as
 * node-postgres reads it, so a raw `@` in the password is masked too.
 */
export function maskUrl(url: string): string {
  if (!isUri(url)) return url.replace(CONNINFO_PASSWORD_RE, '$1***');
  return url
    .replace(AUTHORITY_RE, (_all, scheme: string, authority: string) => {
      const at = authority.lastIndexOf('@');
      if (at === -1) return scheme + authority;
      const userinfo = authority.slice(0, at);
      const colon = userinfo.indexOf(':');
      return scheme + (colon === -1 ? userinfo : `${userinfo.slice(0, colon)}:***`) + authority.slice(at);
    })
    .replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** The password a connection string (URI or keyword/value) carries, decoded, if any. */
export function urlPassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (!isUri(url)) {
    try {
      return parseConninfo(url).password || undefined;
    } catch {
      // Not a valid conninfo string, but it may still carry a password to keep out of messages.
      return passwordByPattern(url);
    }
  }
  try {
    const parsed = new URL(url);
    return parsed.password ? decodeURIComponent(parsed.password) : (parsed.searchParams.get('password') ?? undefined);
  } catch {
    const authority = AUTHORITY_RE.exec(url)?.[2] ?? '';
    const userinfo = authority.slice(0, Math.max(0, authority.lastIndexOf('@')));
    return userinfo.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : undefined;
  }
}

function passwordByPattern(text: string): string | undefined {
  const match = /\bpassword\s*=\s*('(?:\\.|[^'\\])*'?|(?:\\.|[^\s\\])*)/i.exec(text);
  return match?.[1]?.replace(/^'|'$/g, '').replace(/\\(.)/g, '$1') || undefined;
}
