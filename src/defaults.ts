// The defaults a run starts from, in one place: help text interpolates them and the client and
// the bulk runner fall back to them, so the two can never disagree.
export const DEFAULTS = {
  /** Seconds before one attempt of a request is given up. */
  timeoutSeconds: 30,
  /** Seconds to open a connection (never more than the attempt's own limit). */
  connectTimeoutSeconds: 10,
  /** Further attempts after a failure that is safe to repeat. */
  retries: 2,
  /** The first pause before a retry; it doubles per attempt, with full jitter. */
  retryBaseDelayMs: 250,
  /** The longest pause between two attempts of the backoff. */
  retryMaxDelayMs: 8_000,
  /** The longest Retry-After waited for; a store asking for more fails the call at once. */
  retryAfterCapMs: 30_000,
  /** With --each: requests in flight at once. */
  concurrency: 4,
  /** With --each: requests per second at most: the platform's documented limit per token, which the sandbox enforces too. */
  rate: 4,
  /** auth login --app: the loopback port the store sends the browser back to. */
  redirectPort: 8976,
  /** auth login --app: seconds to wait for the store's answer. */
  loginWaitSeconds: 300,
} as const;
