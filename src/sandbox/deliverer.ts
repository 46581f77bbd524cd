// Sends the webhook deliveries queued in the state's outbox, after the change that queued them is
// saved: a signed JSON POST, retried with exponential backoff unless answered 200. Each failure raises the
// webhook's warning_count and sets next_check_date; a 410, or a failure after the last retry,
// switches the webhook off (platform facts, "Webhook deliveries").
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { WEBHOOK_SIGNATURE_HEADER } from '../webhooks/signature.js';
import { outbox, type OutboxDelivery } from './events.js';
import type { SandboxState } from './state.js';
import type { StateStore } from './store.js';

export const MAX_RETRIES = 10;
/** The platform's limit for an answer. */
export const DELIVERY_TIMEOUT_MS = 20_000;
/** Retries come after 5 min, 10 min, 20 min, …: the tenth some 85 hours (3.5 days) after the first try. */
export const DEFAULT_BACKOFF_MS = 5 * 60_000;

export interface DeliveryOptions {
  /** The first retry's delay; each further retry waits twice as long. */
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
}

export interface Deliverer {
  /** Sends what is due now, and plans the next retry. */
  kick(): void;
  /** Resolves when nothing is being sent (what was due has had its attempt). */
  settle(): Promise<void>;
  /** Stops planning retries and abandons attempts in flight. */
  close(): void;
}

export function createDeliverer(store: StateStore, options: DeliveryOptions = {}): Deliverer {
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  async function drain(): Promise<void> {
    for (;;) {
      again = false;
      // A read first: most runs have nothing due, and a file-backed store then writes nothing.
      const { due, next } = await store.transact((state) => survey(state, Date.now()), false);
      if (abort.signal.aborted) return;
      if (!due) {
        if (again) continue;
        clearTimeout(timer);
        if (Number.isFinite(next)) timer = setTimeout(kick, Math.max(0, next - Date.now())).unref();
        return;
      }
      const claimed = await store.transact((state) => claimDue(state, Date.now(), timeoutMs), true);
      await Promise.all(claimed.map((item) => attempt(item)));
    }
  }

  async function attempt({ delivery, target }: { delivery: OutboxDelivery; target: string }) {
    const answer = await post(target, delivery, timeoutMs, abort.signal);
    if (abort.signal.aborted) return;
    const outcome = await store.transact((state) => record(state, delivery, answer, Date.now(), backoffMs), true);
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

  return {
    kick,
    settle: async () => {
      while (running) await running.catch(() => undefined);
    },
    close: () => {
      abort.abort();
      clearTimeout(timer);
    },
  };
}

function isDue(delivery: OutboxDelivery, now: number): boolean {
  return delivery.dueAt <= now && (delivery.claimedUntil ?? 0) <= now;
}

/** Whether anything is due now, and when the next attempt is (Infinity for never). */
function survey(state: SandboxState, now: number) {
  const list = outbox(state);
  return { due: list.some((d) => isDue(d, now)), next: Math.min(...list.map((d) => Math.max(d.dueAt, d.claimedUntil ?? 0))) };
}

/** Marks the due deliveries as being sent by this process; drops those whose webhook is gone or off. */
function claimDue(state: SandboxState, now: number, timeoutMs: number) {
  const claimed: { delivery: OutboxDelivery; target: string }[] = [];
  state.webhookOutbox = outbox(state).filter((delivery) => {
    const webhook = state.webhooks[delivery.webhook];
    if (!webhook || webhook.active === false || !webhook.target) return false;
    if (isDue(delivery, now)) {
      delivery.claimedUntil = now + timeoutMs + 5_000;
      claimed.push({ delivery: { ...delivery }, target: webhook.target });
    }
    return true;
  });
  return claimed;
}

interface Answer {
  status?: number;
  error?: string;
}

function record(state: SandboxState, sent: OutboxDelivery, answer: Answer, now: number, backoffMs: number): DeliveryOutcome | undefined {
  const list = outbox(state);
  const delivery = list.find((d) => d.event_id === sent.event_id && d.webhook === sent.webhook);
  const webhook = state.webhooks[sent.webhook];
  if (!delivery || !webhook) return undefined;
  // The platform counts only a 200 as delivered: a 204 or any other 2xx is retried like a failure.
  const ok = answer.status === 200;
  let deactivated = false;
  if (ok) {
    list.splice(list.indexOf(delivery), 1);
  } else {
    delivery.failures++;
    delete delivery.claimedUntil;
    webhook.warning_count = (webhook.warning_count ?? 0) + 1;
    if (answer.status === 410 || delivery.failures > MAX_RETRIES) {
      webhook.active = false;
      deactivated = true;
      state.webhookOutbox = list.filter((d) => d.webhook !== webhook.id);
    } else {
      delivery.dueAt = now + backoffMs * 2 ** (delivery.failures - 1);
    }
  }
  const pending = outbox(state).filter((d) => d.webhook === webhook.id).map((d) => d.dueAt);
  webhook.next_check_date = pending.length > 0 ? new Date(Math.min(...pending)).toISOString().replace(/\.\d{3}Z$/, 'Z') : null;
  return {
    webhook: sent.webhook,
    event_id: sent.event_id,
    event_type: sent.event_type,
    ...(answer.status !== undefined ? { status: answer.status } : {}),
    ok,
    ...(answer.error ? { error: answer.error } : {}),
    failures: delivery.failures,
    deactivated,
  };
}

/** Hosts reserved for documentation and tests never resolve (RFC 2606, 6761): fail without asking DNS. */
const RESERVED_HOST = /(^|\.)(example|test|invalid)$|(^|\.)example\.(com|net|org)$/i;

function post(target: string, delivery: OutboxDelivery, timeoutMs: number, signal: AbortSignal): Promise<Answer> {
  const url = new URL(target);
  if (RESERVED_HOST.test(url.hostname)) return Promise.resolve({ error: `${url.hostname} is a reserved name that never resolves` });
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(delivery.body),
        'user-agent': 'store-admin-sandbox',
        ...(delivery.signature ? { [WEBHOOK_SIGNATURE_HEADER]: delivery.signature } : {}),
      },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode });
      });
      res.on('error', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode });
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      resolve({ error: error.message });
    });
    req.end(delivery.body);
  });
}
