// Sends the webhook deliveries queued in the state's outbox, after the change that queued them is
// saved: a signed JSON POST, retried on the platform's schedule unless answered 200. Each failure raises the
// webhook's warning_count and sets next_check_date; a 410, or a failure after the last retry,
// switches the webhook off (platform facts, "Webhook deliveries"). Every attempt is kept in the
// delivery log. Times are the sandbox clock's (clock.ts), so advancing the clock brings retries due.
import { ExchangeError, httpPool, limitsOf } from '../api/http.js';
import type { ProxySettings } from '../api/proxy.js';
import { WEBHOOK_SIGNATURE_HEADER } from '../api/webhook-signature.js';
import { clockNow, isoSeconds } from './clock.js';
import { recordAttempt } from './delivery-log.js';
import { outbox } from './events.js';
import { DEFAULT_BACKOFF_MS, MAX_RETRIES, RETRY_SCHEDULE_MINUTES } from './settings.js';
import type { DeliveryAttempt, OutboxDelivery, SandboxState } from './state.js';
import type { StateStore } from './store.js';

/** The platform's limit for an answer. */
export const DELIVERY_TIMEOUT_MS = 20_000;

export interface DeliveryOptions {
  /** The first retry's delay; the later ones keep the schedule's proportions (each twice the one before). */
  backoffMs?: number;
  timeoutMs?: number;
  /** Told of each attempt once its outcome is saved (tests wait on it). */
  onDelivery?: (outcome: DeliveryOutcome) => void;
}

export interface DeliveryOutcome {
  webhook: number;
  event_id: string;
  event_type: string;
  /** The receiver's status, or undefined when none came (refused, timed out). */
  status?: number;
  ok: boolean;
  error?: string;
  /** Failed attempts of this delivery so far. */
  failures: number;
  /** The webhook was switched off by this attempt. */
  deactivated: boolean;
  /** The attempt's id in the delivery log. */
  delivery: string;
}

export interface Deliverer {
  /** Sends what is due now, and plans the next retry. */
  kick(): void;
  /** Resolves when nothing is being sent (what was due has had its attempt). */
  settle(): Promise<void>;
  /** Attempts everything due now and waits for the outcomes; says how many attempts were made. */
  attemptDue(): Promise<number>;
  /** When the next attempt falls due, sandbox time (Infinity for never). */
  nextAttemptAt(state: SandboxState): number;
  /** Stops planning retries and abandons attempts in flight. */
  close(): void;
}

/** The wait after the `failures`-th failed attempt, scaled so the first retry waits `backoffMs`. */
export function retryDelayMs(failures: number, backoffMs: number = DEFAULT_BACKOFF_MS): number {
  return (backoffMs * RETRY_SCHEDULE_MINUTES[failures - 1]!) / RETRY_SCHEDULE_MINUTES[0];
}

/** The platform counts only a 200 as delivered: a 204 or any other 2xx is retried like a failure. */
export function delivered(status: number | undefined | null): boolean {
  return status === 200;
}

export function createDeliverer(store: StateStore, options: DeliveryOptions = {}): Deliverer {
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let attempts = 0;

  async function drain(): Promise<void> {
    for (;;) {
      again = false;
      // A read first: most runs have nothing due, and a file-backed store then writes nothing.
      const { due, wait } = await store.transact((state) => survey(state, Date.now()), false);
      if (abort.signal.aborted) return;
      if (!due) {
        if (again) continue;
        clearTimeout(timer);
        if (Number.isFinite(wait)) timer = setTimeout(kick, Math.min(2 ** 31 - 1, Math.max(0, wait))).unref();
        return;
      }
      const claimed = await store.transact((state) => claimDue(state, Date.now(), timeoutMs), true);
      await Promise.all(claimed.map((item) => attempt(item)));
    }
  }

  async function attempt({ delivery, target }: { delivery: OutboxDelivery; target: string }) {
    const headers = deliveryHeaders(delivery.body, delivery.signature);
    const answer = await post(target, headers, delivery.body, timeoutMs, { signal: abort.signal });
    if (abort.signal.aborted) return;
    attempts++;
    const outcome = await store.transact((state) => record(state, delivery, target, headers, answer, backoffMs), true);
    if (outcome) options.onDelivery?.(outcome);
  }

  function kick() {
    if (abort.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = drain().finally(() => (running = undefined));
  }

  async function settle() {
    while (running) await running.catch(() => undefined);
  }

  return {
    kick,
    settle,
    attemptDue: async () => {
      await settle();
      const before = attempts;
      kick();
      await settle();
      return attempts - before;
    },
    nextAttemptAt: (state) => nextAttempt(state, Date.now()),
    close: () => {
      abort.abort();
      clearTimeout(timer);
    },
  };
}

function isDue(delivery: OutboxDelivery, nowMs: number, realMs: number): boolean {
  return delivery.dueAt <= nowMs && (delivery.claimedUntil ?? 0) <= realMs;
}

/** The next attempt's time, leaving out deliveries another process is sending (they are its to record). */
function nextAttempt(state: SandboxState, realMs: number): number {
  return Math.min(...outbox(state).filter((d) => (d.claimedUntil ?? 0) <= realMs).map((d) => d.dueAt));
}

/** Whether anything is due now, and how long (real ms) until the next attempt (Infinity for never). */
function survey(state: SandboxState, realMs: number) {
  const now = clockNow(state, realMs);
  const list = outbox(state);
  const soonest = Math.min(...list.map((d) => Math.max(d.dueAt - now, (d.claimedUntil ?? 0) - realMs)));
  return { due: list.some((d) => isDue(d, now, realMs)), wait: soonest };
}

/** Marks the due deliveries as being sent by this process; drops those whose webhook is gone or off. */
function claimDue(state: SandboxState, realMs: number, timeoutMs: number) {
  const now = clockNow(state, realMs);
  const claimed: { delivery: OutboxDelivery; target: string }[] = [];
  state.webhookOutbox = outbox(state).filter((delivery) => {
    const webhook = state.records.webhooks[String(delivery.webhook)];
    if (!webhook || webhook.active === false || typeof webhook.target !== 'string' || !webhook.target) return false;
    if (isDue(delivery, now, realMs)) {
      // Real time: the claim keeps another process off while this one waits for the answer.
      delivery.claimedUntil = realMs + timeoutMs + 5_000;
      claimed.push({ delivery: { ...delivery }, target: webhook.target });
    }
    return true;
  });
  return claimed;
}

export interface Answer {
  status?: number;
  error?: string;
  durationMs: number;
}

function record(
  state: SandboxState,
  sent: OutboxDelivery,
  target: string,
  headers: Record<string, string>,
  answer: Answer,
  backoffMs: number,
): DeliveryOutcome | undefined {
  const list = outbox(state);
  const delivery = list.find((d) => d.event_id === sent.event_id && d.webhook === sent.webhook);
  const webhook = state.records.webhooks[String(sent.webhook)];
  if (!delivery || !webhook) return undefined;
  const now = clockNow(state);
  const ok = delivered(answer.status);
  let deactivated = false;
  let nextAttemptAt: number | undefined;
  if (ok) {
    list.splice(list.indexOf(delivery), 1);
  } else {
    delivery.failures++;
    delete delivery.claimedUntil;
    webhook.warning_count = Number(webhook.warning_count ?? 0) + 1;
    if (answer.status === 410 || delivery.failures > MAX_RETRIES) {
      webhook.active = false;
      deactivated = true;
      state.webhookOutbox = list.filter((d) => d.webhook !== sent.webhook);
    } else {
      nextAttemptAt = delivery.dueAt = now + retryDelayMs(delivery.failures, backoffMs);
    }
  }
  const pending = outbox(state).filter((d) => d.webhook === sent.webhook).map((d) => d.dueAt);
  webhook.next_check_date = pending.length > 0 ? isoSeconds(Math.min(...pending)) : null;
  const kept = recordAttempt(state, {
    event_id: sent.event_id,
    event_type: sent.event_type,
    webhook: sent.webhook,
    attempt: sent.failures + 1,
    target,
    headers,
    body: sent.body,
    ...attemptOutcome(now, answer),
    next_attempt_at: nextAttemptAt === undefined ? null : isoSeconds(nextAttemptAt),
    deactivated,
  });
  return {
    webhook: sent.webhook,
    event_id: sent.event_id,
    event_type: sent.event_type,
    ...(answer.status !== undefined ? { status: answer.status } : {}),
    ok,
    ...(answer.error ? { error: answer.error } : {}),
    failures: delivery.failures,
    deactivated,
    delivery: kept.id,
  };
}

/** The outcome fields of a delivery-log record. */
export function attemptOutcome(nowMs: number, answer: Answer): Pick<DeliveryAttempt, 'sent_at' | 'status' | 'error' | 'duration_ms' | 'ok'> {
  return {
    // Sent when the answer's wait began, on the sandbox's clock.
    sent_at: isoSeconds(nowMs - answer.durationMs),
    status: answer.status ?? null,
    ...(answer.error ? { error: answer.error } : {}),
    duration_ms: answer.durationMs,
    ok: delivered(answer.status),
  };
}

/** The headers of a delivery, as sent and as kept in the log. */
export function deliveryHeaders(body: string, signature?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'store-admin-sandbox',
    ...(signature ? { [WEBHOOK_SIGNATURE_HEADER]: signature } : {}),
  };
}

/** Hosts reserved for documentation and tests never resolve (RFC 2606, 6761): fail without asking DNS. */
const RESERVED_HOST = /(^|\.)(example|test|invalid)$|(^|\.)example\.(com|net|org)$/i;

/** Most bytes of a receiver's answer read: only its status counts. */
const ANSWER_BYTES = 64 * 1024;

/**
 * One POST of a delivery's bytes, through the tool's one HTTP core: the whole answer within
 * `timeoutMs`, redirects not followed. The sandbox delivers straight to the target, as the
 * platform does; a replay sent from this machine (`webhooks replay`) goes through its proxy.
 * Never throws: a failure is an answer without a status.
 */
export async function post(
  target: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  { signal, proxy }: { signal?: AbortSignal; proxy?: ProxySettings } = {},
): Promise<Answer> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const url = new URL(target);
  if (RESERVED_HOST.test(url.hostname)) return { error: `${url.hostname} is a reserved name that never resolves`, durationMs: 0 };
  const pool = httpPool(limitsOf({ timeoutMs, maxBytes: ANSWER_BYTES }), { proxy });
  try {
    const answer = await pool.send({ method: 'POST', url, headers, body, signal });
    return { status: answer.status, durationMs: took() };
  } catch (error) {
    // An answer too long to read is an answer all the same.
    if (error instanceof ExchangeError && error.code === 'TOO_LARGE') return { status: error.status, durationMs: took() };
    return { error: pool.describe(error, url).message, durationMs: took() };
  } finally {
    await pool.close();
  }
}
