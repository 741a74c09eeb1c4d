/** Replace every secret in `text` (raw and URL-encoded) with `***`. */
export function maskSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let masked = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) masked = masked.split(form).join('***');
  }
  return masked;
}

/** A connection string fit to show: the password (in the authority or as `password=`) replaced by `***`. */
export function maskUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1***@')
    .replace(/([?&]password=)[^&]*/gi, '$1***');
}

/** The password a connection string carries, decoded, if any. */
export function urlPassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : (new URL(url).searchParams.get('password') ?? undefined);
  } catch {
    return /:\/\/[^:/@]*:([^@]*)@/.exec(url)?.[1];
  }
}
