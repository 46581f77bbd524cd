// Secrets the store may send back (a webhook's secret_key) never reach the screen or a log as is.
import { SECRET_KEYS_MASK } from './mask.js';

const SECRET_FIELDS = new Set(['secret_key']);

export function redactSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redactSecrets) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        SECRET_FIELDS.has(key) && typeof inner === 'string' && inner ? SECRET_KEYS_MASK : redactSecrets(inner),
      ]),
    ) as T;
  }
  return value;
}
