// The sandbox's settings a person can change or needs to know, written once: the server, the
// deliverer and the OAuth flow run on them, and `store-admin sandbox --help` and the start
// banner quote them. Nothing heavy is imported here, since the help reads it.
import { DEFAULTS } from '../defaults.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4010;

/**
 * The platform's documented limit per access token (platform facts, "Rate limits"): the rate an
 * --each run keeps to by default, written once there.
 */
export const PLATFORM_RATE_PER_SECOND = DEFAULTS.rate;

/** How long a new export stays pending, and a signed download link stays valid. */
export const DEFAULT_EXPORT_DELAY_SECONDS = 5;
export const DEFAULT_LINK_TTL_SECONDS = 300;

/**
 * The resolutions that fit each type of dispute: the dispute-service guide's alert and chargeback
 * lists, and for a chargeback also the two more the reference's values hold (accepted without a
 * fight, or other).
 */
export const DISPUTE_RESOLUTIONS_OF = {
  alert: [
    'could_not_find_order',
    'declined_or_canceled_nothing_to_do',
    'issued_full_refund',
    'issued_refund_for_remaining_amount',
    '3ds_authorized_successfully',
    'previously_refunded_nothing_to_do',
    'unable_to_refund_merchant_account_closed',
    'other',
  ],
  chargeback: ['won', 'lost', 'accepted', 'other'],
} as const satisfies Record<string, readonly string[]>;

/**
 * How long an open cart goes without a change before the store marks it abandoned and sends
 * cart.abandoned. The platform publishes no figure; the sandbox plays a day.
 */
export const CART_ABANDONED_AFTER_HOURS = 24;

/**
 * THE retry schedule of webhook deliveries: the wait before each retry, counted from the failure
 * before it, in minutes. Doubling from 5 minutes, the tenth retry comes some 85 hours (3.5 days)
 * after the first try. The table in README.md ("Retry schedule") is derived from it, and a test
 * keeps the two equal.
 */
export const RETRY_SCHEDULE_MINUTES = [5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560] as const;
export const MAX_RETRIES = RETRY_SCHEDULE_MINUTES.length;
export const DEFAULT_BACKOFF_MS = RETRY_SCHEDULE_MINUTES[0] * 60_000;

/** The store's one partner app: its settings are seeded, and it may sign in (see oauth.ts). */
export const PARTNER_APP = { client_id: 'sandbox-app', name: 'Northwind Ops Console' };
/** The app that notes made through the sandbox's API, and its app.* sample events, name. */
export const SANDBOX_APP = { client_id: PARTNER_APP.client_id, name: 'Sandbox' };
export const DEFAULT_CLIENT_SECRET = 'sandbox-secret';
/** Redirect URIs registered for the partner app, as in its settings: the CLI's own, on its default port. */
export const REGISTERED_REDIRECT_URIS = [`http://127.0.0.1:${DEFAULTS.redirectPort}/callback`, `http://localhost:${DEFAULTS.redirectPort}/callback`];
