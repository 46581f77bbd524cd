// What a sandbox answers and no store does, under /sandbox/: its webhooks with their pending
// deliveries (`webhooks trigger`), the dashboard's changes no API operation makes (a gateway, the
// store's details, an app uninstalled: dashboard-changes.ts), its clock (`sandbox clock`), a reset
// to the seed, and its delivery log with replays (`webhooks deliveries`, `webhooks replay`).
// Answering at all is how the CLI tells a sandbox from a real store, which these commands refuse.
import { redactPassword } from '../api/redaction.js';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER, signWebhookBody } from '../api/webhook-signature.js';
import { clockNow, isoSeconds } from './clock.js';
import { applyDashboardChange } from './dashboard.js';
import { DASHBOARD_CHANGES, type DashboardChangeName } from './dashboard-changes.js';
import { attemptOutcome, deliveryHeaders, DELIVERY_TIMEOUT_MS, post } from './deliverer.js';
import { DELIVERY_ID, DELIVERY_LOG_LIMIT, deliveryLog, findAttempt, recordAttempt } from './delivery-log.js';
import type { Deliverer } from './deliverer.js';
import type { Answering } from './api-answer.js';
import { outbox } from './events.js';
import { checkDeliveryTarget } from './rules/webhooks.js';
import { badRequest, HttpError } from './http-error.js';
import { SANDBOX_PATH, SANDBOX_ROUTES } from './paths.js';
import { nextChangeAt, type Scheduler } from './scheduler.js';
import type { DeliveryAttempt, SandboxState } from './state.js';
import type { StateStore } from './store.js';

export interface SandboxParts {
  store: StateStore;
  deliverer: Deliverer;
  scheduler: Scheduler;
  answering: Answering;
  /** The request came with the sandbox's full-access token (not a scoped or an app's one). */
  fullAccess: boolean;
  /** Takes back the tokens an app was given when it signed in (the app is uninstalled). */
  revokeApp(clientId: string): void;
}

interface Answer {
  status: number;
  body?: unknown;
}

export async function sandboxOnly(method: string, url: URL, raw: string, parts: SandboxParts): Promise<Answer> {
  const rest = url.pathname.slice(SANDBOX_PATH.length);
  const { store } = parts;
  if (rest === SANDBOX_ROUTES.webhooks && method === 'GET') {
    return ok({ webhooks: await store.transact((state) => Object.keys(state.records.webhooks).map((id) => webhookView(state, id)), false) });
  }
  const dashboard = dashboardRoute(method, rest);
  if (dashboard) return ok(await changeInDashboard(parts, dashboard.name, dashboard.key, jsonBody(raw)));
  if (rest === SANDBOX_ROUTES.clock && method === 'GET') return ok(await store.transact((state) => clockView(state), false));
  if (rest === SANDBOX_ROUTES.clock && method === 'POST') return ok({ ...(await moveClockTo(parts, jsonBody(raw))) });
  if (rest === SANDBOX_ROUTES.reset && method === 'POST') return ok(await reset(parts));
  if (rest === SANDBOX_ROUTES.deliveries && method === 'GET') {
    const webhook = url.searchParams.get('webhook');
    const event = url.searchParams.get('event');
    const failed = url.searchParams.get('failed') === 'true';
    const since = deliveriesSince(url.searchParams.get('since'));
    const limit = deliveriesLimit(url.searchParams.get('limit'));
    const list = await store.transact((state) => deliveryLog(state).slice(), false);
    // Newest first: the attempt just made is the one looked for.
    const matching = list
      .filter((d) => (webhook === null || String(d.webhook) === webhook) && (event === null || d.event_type === event) && (!failed || !d.ok) && Date.parse(d.sent_at) >= since)
      .reverse();
    return ok({ deliveries: matching.slice(0, limit), total: matching.length });
  }
  const inLog = rest.startsWith(SANDBOX_ROUTES.deliveries) ? rest.slice(SANDBOX_ROUTES.deliveries.length) : '';
  const [, deliveryId, action] = /^([^/]{1,40})\/?(replay\/?)?$/.exec(inLog) ?? [];
  if (deliveryId && DELIVERY_ID.test(deliveryId)) {
    if (method === 'GET' && !action) {
      const shown = await store.transact((state) => {
        const found = findAttempt(state, deliveryId);
        return found && { ...found, signature_check: signatureCheck(state, found) };
      }, false);
      if (!shown) throw notFound(`Delivery ${deliveryId}`);
      return ok({ delivery: shown });
    }
    if (method === 'POST' && action) return ok({ delivery: await replay(store, deliveryId, jsonBody(raw)) });
  }
  if (deliveryId) throw notFound(`Delivery ${deliveryId}`);
  throw new HttpError(404, { detail: 'Not found.' });
}

/** `since`: an ISO 8601 date-time of the sandbox's clock; none is the log's start. */
function deliveriesSince(text: string | null): number {
  if (text === null) return -Infinity;
  const at = /^\d{4}-\d\d-\d\dT/.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(at)) throw new HttpError(400, { since: ['An ISO 8601 date-time, such as 2026-03-01T00:00:00Z.'] });
  return at;
}

/** `limit`: how many of the newest attempts, 1 to the log's size; none is all. */
function deliveriesLimit(text: string | null): number {
  if (text === null) return DELIVERY_LOG_LIMIT;
  if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > DELIVERY_LOG_LIMIT) {
    throw new HttpError(400, { limit: [`A whole number from 1 to ${DELIVERY_LOG_LIMIT}.`] });
  }
  return Number(text);
}

/** Its own "not found" says it is a sandbox too, so the CLI does not take it for a store's. */
function notFound(what: string) {
  return new HttpError(404, { sandbox: true, detail: `${what} not found.` });
}

function ok(body: Record<string, unknown>): Answer {
  return { status: 200, body: { sandbox: true, ...body } };
}

function jsonBody(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = raw.trim() === '' ? {} : JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw badRequest('The body must be a JSON object.');
}

function webhookView(state: SandboxState, id: string) {
  const w = state.records.webhooks[id]!;
  return {
    id: w.id,
    name: w.name,
    active: w.active,
    events: w.events,
    target: w.target,
    warning_count: w.warning_count,
    next_check_date: w.next_check_date,
    pending_deliveries: outbox(state).filter((d) => d.webhook === Number(w.id)).length,
  };
}

/** The time, and when the next change falls due (a renewal, an export turning available, a cart abandoned; to the ms, or null). */
function clockView(state: SandboxState) {
  const next = nextChangeAt(state);
  return { now: isoSeconds(clockNow(state)), next_change_at: Number.isFinite(next) ? new Date(next).toISOString() : null };
}

/**
 * Back to the seed data and the seed's moment, as a new sandbox starts: deliveries in flight
 * finish first (their outcome would land in the new state otherwise), and what was planned for
 * the old state is planned again for the new one. Only the full-access token may.
 */
async function reset({ store, deliverer, scheduler, fullAccess }: SandboxParts) {
  if (!fullAccess) throw new HttpError(403, { detail: "Resetting the sandbox needs its full-access token (the one it printed at start), not a scoped one." });
  await deliverer.settle();
  await store.reset();
  await scheduler.catchUp();
  deliverer.kick();
  return { reset: true, ...(await store.transact((state) => clockView(state), false)) };
}

/** `{"to": ISO}`: forward only, so a request sent twice moves the clock once. */
async function moveClockTo(parts: SandboxParts, body: Record<string, unknown>) {
  const to = typeof body.to === 'string' && /^\d{4}-\d\d-\d\dT/.test(body.to) ? Date.parse(body.to) : NaN;
  if (!Number.isFinite(to)) throw new HttpError(400, { to: ['An ISO 8601 date-time, such as 2026-03-01T00:00:00Z.'] });
  const now = await parts.store.transact((state) => clockNow(state), false);
  if (to < now - 1000) {
    throw new HttpError(400, { to: [`The clock only moves forward, and it reads ${isoSeconds(now)}.`] });
  }
  return parts.scheduler.advance(to);
}

/** The dashboard's change the route names, and the key of the record it changes. */
function dashboardRoute(method: string, rest: string): { name: DashboardChangeName; key: string } | undefined {
  for (const [name, change] of Object.entries(DASHBOARD_CHANGES) as [DashboardChangeName, (typeof DASHBOARD_CHANGES)[DashboardChangeName]][]) {
    const match = new RegExp(`^${change.path.replace('{key}', '([^/]{1,100})')}$`).exec(rest);
    if (match && change.method === method) return { name, key: decodeURIComponent(match[1] ?? '') };
  }
  return undefined;
}

/** A change made as the store's owner makes it in the dashboard (so only with the full-access token); its deliveries go out once it is saved. */
async function changeInDashboard({ store, deliverer, answering, revokeApp, fullAccess }: SandboxParts, name: DashboardChangeName, key: string, body: Record<string, unknown>) {
  if (!fullAccess) throw new HttpError(403, { detail: "The dashboard's changes need the sandbox's full-access token (the one it printed at start), not a scoped one." });
  const answer = await store.transact((state) => applyDashboardChange(state, { answering, revokeApp }, name, key, body), true);
  if (answer.queued > 0) deliverer.kick();
  return { event: answer.event, object: answer.object };
}

/** Whether the attempt's signature matches its webhook's secret; the secret itself never leaves. */
function signatureCheck(state: SandboxState, attempt: DeliveryAttempt) {
  const signature = attempt.headers[WEBHOOK_SIGNATURE_HEADER];
  if (!signature) return { signed: false };
  const secret = state.records.webhooks[String(attempt.webhook)]?.secret_key as string | undefined;
  if (!secret) return { signed: true, checked: false, reason: 'the webhook is gone or has no secret any more' };
  return { signed: true, checked: true, ...verifyWebhookSignature(attempt.body, signature, secret) };
}

/**
 * Sends a recorded attempt again: to its target or `to`, with the same bytes and headers, or with
 * `body` instead, signed with the webhook's current secret. Recorded as a replay; the webhook's
 * warning_count and retries are not touched, since the platform did not send it.
 */
async function replay(store: StateStore, id: string, request: Record<string, unknown>): Promise<DeliveryAttempt> {
  const planned = await store.transact((state) => {
    const original = findAttempt(state, id);
    if (!original) throw notFound(`Delivery ${id}`);
    const target = request.to === undefined ? original.target : String(request.to);
    if (request.to !== undefined) {
      try {
        checkDeliveryTarget(target);
      } catch (error) {
        if (error instanceof HttpError) throw new HttpError(400, { to: (error.body as { target: string[] }).target });
        throw new HttpError(400, { to: ['An http(s) URL, such as http://localhost:3000/webhooks.'] });
      }
    }
    if (request.body === undefined) return { original, target, headers: original.headers, body: original.body };
    if (typeof request.body !== 'string') throw new HttpError(400, { body: ['The edited body, as a string.'] });
    try {
      JSON.parse(request.body);
    } catch (error) {
      throw new HttpError(400, { body: [`Not JSON: ${(error as Error).message}`] });
    }
    const secret = state.records.webhooks[String(original.webhook)]?.secret_key as string | undefined;
    if (original.headers[WEBHOOK_SIGNATURE_HEADER] && !secret) {
      throw badRequest(`Webhook ${original.webhook} is gone or has no secret any more: the edited body cannot be signed.`);
    }
    return { original, target, headers: deliveryHeaders(request.body, secret ? signWebhookBody(request.body, secret) : undefined), body: request.body };
  }, false);
  const answer = await post(planned.target, planned.headers, planned.body, DELIVERY_TIMEOUT_MS);
  return store.transact((state) => {
    const { original } = planned;
    return recordAttempt(state, {
      event_id: original.event_id,
      event_type: original.event_type,
      webhook: original.webhook,
      attempt: original.attempt,
      replay_of: original.id,
      // The log keeps where it went, not a password the URL held.
      target: redactPassword(planned.target),
      headers: planned.headers,
      body: planned.body,
      ...attemptOutcome(clockNow(state), answer),
      next_attempt_at: null,
      deactivated: false,
    });
  }, true);
}
