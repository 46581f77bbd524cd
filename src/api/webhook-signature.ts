// The signature a store puts on a webhook delivery, made and checked. The platform signs its body
// parsed and serialised again by Python (see python-json.ts), while a receiver holds the raw bytes;
// both are checked, in constant time, and the answer says which one matched. Part of the API's
// contract, so the client's commands and the sandbox's deliverer both read it from here.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { pythonJsonDumps } from './python-json.js';

/** The header a delivery's signature travels in. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-store-signature';

export interface WebhookSignatureCheck {
  valid: boolean;
  /** Which bytes the signature was made over: the body as received, or the platform's re-serialisation of it. */
  matched: 'raw' | 'python-json' | null;
}

/** Lower-case hex HMAC-SHA256, the way the platform signs. */
export function webhookHmac(bytes: string | Uint8Array, secret: string | Uint8Array): string {
  return createHmac('sha256', secret).update(bytes).digest('hex');
}

/** The signature the platform puts on `body`: the HMAC of its Python re-serialisation. */
export function signWebhookBody(body: string, secret: string | Uint8Array): string {
  return webhookHmac(pythonJsonDumps(body), secret);
}

/**
 * Checks `signature` (the X-Store-Signature header, hex; Node's `req.headers` value is fine) against
 * a delivery's `body` (the raw bytes or text received) and the webhook's `secret`. Both candidate
 * digests are always computed and compared, so the time taken tells nothing about the signature.
 */
export function verifyWebhookSignature(
  body: string | Uint8Array,
  signature: string | readonly string[] | null | undefined,
  secret: string | Uint8Array,
): WebhookSignatureCheck {
  const bodyBytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const header = (typeof signature === 'string' ? signature : signature?.[0] ?? '').trim();
  const given = Buffer.from(/^[0-9a-f]{64}$/i.test(header) ? header.toLowerCase() : '', 'hex');
  const raw = createHmac('sha256', secret).update(bodyBytes).digest();
  let reserialised: Buffer | undefined;
  try {
    reserialised = createHmac('sha256', secret).update(pythonJsonDumps(Buffer.from(bodyBytes).toString('utf8'))).digest();
  } catch {
    // Not JSON: only the raw bytes can match.
  }
  // A malformed signature is compared too (against zeros), so it takes the same time as any other.
  const candidate = given.length === 32 ? given : Buffer.alloc(32);
  const rawMatch = timingSafeEqual(raw, candidate) && given.length === 32;
  const jsonMatch = timingSafeEqual(reserialised ?? Buffer.alloc(32, 0xff), candidate) && given.length === 32 && reserialised !== undefined;
  if (rawMatch) return { valid: true, matched: 'raw' };
  if (jsonMatch) return { valid: true, matched: 'python-json' };
  return { valid: false, matched: null };
}
