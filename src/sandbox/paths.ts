// Where a sandbox serves what no store offers, outside the API's /api/admin: written once, for its
// routes (sandbox-routes.ts) and for the commands that call them (webhooks/sandbox-admin.ts).

/** GET of the path itself answers, without a token, that the store is a sandbox. */
export const SANDBOX_PATH = '/sandbox/';

/** The sandbox-only routes, relative to SANDBOX_PATH (and the dashboard's changes, dashboard-changes.ts). */
export const SANDBOX_ROUTES = {
  /** GET: its webhooks with their pending deliveries. */
  webhooks: 'webhooks/',
  /** GET: its clock and its next change due; POST {"to"}: moves it forward (`sandbox clock`, `webhooks trigger`). */
  clock: 'clock/',
  /** GET: the delivery log; `deliveries/ID` one attempt, `deliveries/ID/replay/` sends it again. */
  deliveries: 'deliveries/',
  /** POST, with the full-access token: back to the seed data and the seed's moment (`sandbox reset --base-url`). */
  reset: 'reset/',
} as const;
