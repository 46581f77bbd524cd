// Tokens as people paste them: `$(cat token.txt)` keeps a CR, a paste keeps a newline, and the
// dashboard's examples show "Bearer …". Caught here, before a header the transport would refuse.
import { UsageError } from '../api/errors.js';

/** The token, trimmed; `from` names where it came from (a flag, a variable) in the error. */
export function cleanToken(raw: string, from: string): string {
  const token = raw.trim();
  if (!token) throw new UsageError(`${from}: the token is empty`);
  if (/[\r\n]/.test(token)) throw new UsageError(`${from}: the token contains a line break; give the token alone, on one line`);
  if (/^bearer\s/i.test(token)) {
    throw new UsageError(`${from}: the token starts with "Bearer "`, { hint: 'Give the token alone: "Bearer " is added to each request' });
  }
  if (/[\s\p{Cc}]/u.test(token)) throw new UsageError(`${from}: the token contains white space or control characters; give the token alone`);
  return token;
}
