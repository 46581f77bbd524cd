// Secrets the store may send back (a webhook's secret_key) never reach the screen or a log as is;
// in a trace, neither does a signed download link.
import { redactQuery } from '../api/redaction.js';
import { SECRET_KEYS_MASK } from './mask.js';

const SECRET_FIELDS = new Set(['secret_key']);

/**
 * `links`: also hide the query of every `url` (for traces): `exports download` answers a temporary
 * link whose query lets anyone fetch the file without a token.
 */
export function redactSecrets<T>(value: T, { links = false }: { links?: boolean } = {}): T {
  const redact = (inner: unknown): unknown => {
    if (Array.isArray(inner)) return inner.map(redact);
    if (!inner || typeof inner !== 'object') return inner;
    return Object.fromEntries(
      Object.entries(inner).map(([key, field]) => [
        key,
        SECRET_FIELDS.has(key) && typeof field === 'string' && field ? SECRET_KEYS_MASK : links && key === 'url' && typeof field === 'string' ? redactQuery(field) : redact(field),
      ]),
    );
  };
  return redact(value) as T;
}
