// Trades an authorization code for a token (the app guide's step 3): a form-encoded POST to the
// store's token endpoint, sent like any request of the tool (no redirect followed, one time limit),
// the client secret in the body only. RFC 6749 §5.2 errors become one line saying what went wrong.
import * as z from 'zod/mini';
import { AuthError, StoreAdminError } from '../api/errors.js';
import { attempt } from '../api/attempt.js';
import { CLIENT_VERSION } from '../api/client.js';
import { httpPool, limitsOf } from '../api/http.js';
import { TOKEN_PATH } from '../api/oauth.js';
import type { ProxySettings } from '../api/proxy.js';
import { excerpt } from '../printable.js';

/** A token a request can carry in its Authorization header: printable ASCII, no white space (RFC 6750's b64token and more). */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

const tokenAnswer = z.object({
  access_token: z.string().check(z.minLength(1)),
  token_type: z.optional(z.string()),
  scope: z.optional(z.string()),
  refresh_token: z.optional(z.string()),
  expires_in: z.optional(z.number()),
});

export type TokenAnswer = z.output<typeof tokenAnswer>;

export interface CodeExchange {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  code: string;
  timeoutMs: number;
  signal?: AbortSignal;
  proxy?: ProxySettings;
}

export async function exchangeCode(request: CodeExchange): Promise<TokenAnswer> {
  const pool = httpPool(limitsOf({ timeoutMs: request.timeoutMs, maxBytes: 1024 * 1024 }), { proxy: request.proxy });
  const url = `${request.baseUrl}${TOKEN_PATH}`;
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    client_id: request.clientId,
    client_secret: request.clientSecret,
    redirect_uri: request.redirectUri,
    code: request.code,
  }).toString();
  const headers = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
    'user-agent': `store-admin/${CLIENT_VERSION} node/${process.versions.node}`,
  };
  try {
    const answer = await attempt(pool, { method: 'POST', url, headers }, { headers, body }, request.signal, true);
    if (answer.status >= 200 && answer.status < 300) {
      const parsed = tokenAnswer.safeParse(answer.body);
      if (parsed.success && (parsed.data.token_type ?? 'Bearer').toLowerCase() === 'bearer') {
        // Saved, such a token would make every later command fail: it is refused now, nothing saved.
        const { access_token: token, refresh_token: refresh } = parsed.data;
        if (!HEADER_SAFE.test(token) || (refresh !== undefined && !HEADER_SAFE.test(refresh))) {
          throw new StoreAdminError(`The store's token endpoint answered a token with a line break, a space or a control character in it, which no request can carry; nothing was saved`, {
            hint: 'Check the store URL: the answer did not come from the store',
          });
        }
        return parsed.data;
      }
      throw new StoreAdminError(`The store's token endpoint answered ${answer.status} without a bearer token`, {
        hint: 'Check the store URL: the answer did not come from the store',
      });
    }
    throw refusal(answer.status, answer.body);
  } finally {
    await pool.close();
  }
}

/** RFC 6749 §5.2: `error` says which, `error_description` may say more. */
function refusal(status: number, body: unknown): StoreAdminError {
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const error = typeof fields.error === 'string' ? fields.error : undefined;
  const more = typeof fields.error_description === 'string' ? ` (${excerpt(fields.error_description)})` : '';
  if (error === 'invalid_client') {
    return new AuthError(`The store rejected the app's client id or secret${more}`, { hint: "Check --client-id and the client secret in the app's settings" });
  }
  if (error === 'invalid_grant') {
    return new AuthError(`The store refused the code${more}`, { hint: 'Codes are good once and for 10 minutes: run the login again' });
  }
  if (error) return new StoreAdminError(`The store refused the token exchange: ${excerpt(error)}${more}`);
  return new StoreAdminError(`The store's token endpoint answered ${status}`, { hint: 'Check the store URL' });
}
