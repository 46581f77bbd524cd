// What a request looks like when shown: the token and a signed link's query hidden. A leaf module,
// so output code can redact without loading the request builder and its schemas.

export const REDACTED = '***';

/** A URL safe to print: a signed link's query is its signature, and works without a token. */
export function redactQuery(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? url : `${url.slice(0, at)}?${REDACTED}`;
}

/** A URL safe to print: the password of `https://user:password@host/` is hidden; other text is left as it is. */
export function redactPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = REDACTED;
    return parsed.href;
  } catch {
    return url;
  }
}

/** A copy of the headers that is safe to print. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const safe = { ...headers };
  if (safe.authorization) safe.authorization = `Bearer ${REDACTED}`;
  return safe;
}
