// What falls due as the sandbox's clock moves, run in time order as the platform would: an active
// subscription renews when its next_renewal_date passes, a pending export turns available when its
// delay has run out, an open cart left alone for CART_ABANDONED_AFTER_HOURS is abandoned, and
// deliveries are attempted when due (deliverer.ts). Real time moves the clock, so a timer wakes the
// sandbox for the next change; `sandbox clock advance|set` moves it further, one due moment at a
// time, attempting the deliveries due at each before going on.
import { clockNow, isoSeconds, moveClock } from './clock.js';
import type { Deliverer } from './deliverer.js';
import type { Answering } from './api-answer.js';
import { deliveryLog } from './delivery-log.js';
import { emitAbout } from './events.js';
import { markAvailable } from './exports.js';
import type { Rec } from './kinds.js';
import { renewSubscription, type SubscriptionRecord } from './renewal.js';
import { CART_ABANDONED_AFTER_HOURS } from './settings.js';
import type { SandboxState } from './state.js';
import type { StateStore } from './store.js';

/** What a clock move did, for the person who moved it. */
export interface ClockMove {
  from: string;
  now: string;
  /** Each renewal, in time order. */
  renewals: { subscription: number; order: string; at: string }[];
  /** Exports that turned available. */
  exports: { id: number; at: string }[];
  /** Carts abandoned. */
  carts: { id: number; at: string }[];
  /** Delivery attempts made on the way (first tries and retries). */
  delivery_attempts: number;
  /** Webhooks an attempt on the way switched off (a 410, or the last retry failing), in time order. */
  webhooks_switched_off: { webhook: number; at: string; attempt: number; delivery: string; answer: string }[];
}

type Change = { at: number; kind: 'renewal'; subscription: number } | { at: number; kind: 'export' | 'cart'; id: number };

/** A bound on changes per catch-up, so a date that does not move on cannot loop forever. */
const MAX_CHANGES = 10_000;
/** Node's timers hold at most 2^31-1 ms (some 24.8 days); a later change is re-planned on waking. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The earliest change due, renewal, export or abandoned cart (none: undefined). */
function earliestChange(state: SandboxState): Change | undefined {
  let earliest: Change | undefined;
  const consider = (change: Change) => {
    if (Number.isFinite(change.at) && change.at < (earliest?.at ?? Infinity)) earliest = change;
  };
  for (const subscription of Object.values(state.records.subscriptions)) {
    if (subscription.status === 'active') consider({ at: Date.parse(String(subscription.next_renewal_date ?? '')), kind: 'renewal', subscription: Number(subscription.id) });
  }
  for (const [id, at] of Object.entries(state.exportsReadyAt)) consider({ at, kind: 'export', id: Number(id) });
  for (const cart of Object.values(state.records.carts)) consider({ at: abandonsAt(cart) ?? NaN, kind: 'cart', id: Number(cart.id) });
  return earliest;
}

/** When an open cart is abandoned: a while after its last change (a submitted or abandoned one never is). */
function abandonsAt(cart: Rec): number | undefined {
  if (cart.abandoned === true || cart.status !== 'Open') return undefined;
  const at = Date.parse(String(cart.updated_at ?? cart.created_at ?? '')) + CART_ABANDONED_AFTER_HOURS * 3_600_000;
  return Number.isFinite(at) ? at : undefined;
}

/** When the next change falls due (Infinity for never). */
export function nextChangeAt(state: SandboxState): number {
  return earliestChange(state)?.at ?? Infinity;
}

/**
 * Applies every change due by `untilMs`, earliest first, each at its own moment (a renewal's order
 * is placed at the renewal date), queueing its events; returns how many deliveries it queued.
 */
export function applyDueChanges(state: SandboxState, untilMs: number, events: Pick<Answering, 'eventData'>, did?: ClockMove): number {
  let queued = 0;
  for (let count = 0; count < MAX_CHANGES; count++) {
    const change = earliestChange(state);
    if (!change || change.at > untilMs) break;
    const at = isoSeconds(change.at);
    const emit = (event: string, record: Rec) => (queued += emitAbout(state, event, record, events.eventData, change.at));
    if (change.kind === 'renewal') {
      const subscription = state.records.subscriptions[String(change.subscription)] as SubscriptionRecord;
      const before = subscription.next_renewal_date;
      const order = renewSubscription(state, subscription, at, emit);
      did?.renewals.push({ subscription: change.subscription, order: String(order.number), at });
      // A date the interval cannot move on (unparseable interval) would renew forever.
      if (subscription.next_renewal_date === before) break;
    } else if (change.kind === 'cart') {
      const cart = state.records.carts[String(change.id)]!;
      cart.abandoned = true;
      emit('cart.abandoned', cart);
      did?.carts.push({ id: change.id, at });
    } else {
      const record = state.records.exports[String(change.id)];
      if (record) {
        markAvailable(state, record);
        emit('export.created', record);
        did?.exports.push({ id: change.id, at });
      } else {
        delete state.exportsReadyAt[change.id];
      }
    }
  }
  return queued;
}

export interface Scheduler {
  /** Applies what real time has made due (a write only when something is). */
  catchUp(): Promise<void>;
  /** Wakes the sandbox when the change due at `atMs` (sandbox time, `nowMs` being now) falls due. */
  plan(atMs: number, nowMs: number): void;
  /** Moves the clock forward to `toMs`, running everything due on the way in time order. */
  advance(toMs: number): Promise<ClockMove>;
  close(): void;
}

export function createScheduler(
  store: StateStore,
  deliverer: Deliverer,
  events: Pick<Answering, 'eventData'>,
  onError: (error: unknown) => void,
): Scheduler {
  const context = () => events;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function plan(atMs: number, nowMs: number) {
    if (closed || !Number.isFinite(atMs)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void catchUp().catch(onError), Math.min(MAX_TIMER_MS, Math.max(0, atMs - nowMs) + 5)).unref();
  }

  async function catchUp() {
    const due = await store.transact((state) => nextChangeAt(state) <= clockNow(state), false);
    const { queued, next, now } = due
      ? await store.transact((state) => {
          const queued = applyDueChanges(state, clockNow(state), context());
          return { queued, next: nextChangeAt(state), now: clockNow(state) };
        }, true)
      : await store.transact((state) => ({ queued: 0, next: nextChangeAt(state), now: clockNow(state) }), false);
    if (queued > 0) deliverer.kick();
    plan(next, now);
  }

  async function advance(toMs: number): Promise<ClockMove> {
    const { from, lastDelivery } = await store.transact((state) => ({ from: clockNow(state), lastDelivery: state.lastIds.delivery }), false);
    const did: ClockMove = { from: isoSeconds(from), now: '', renewals: [], exports: [], carts: [], delivery_attempts: 0, webhooks_switched_off: [] };
    // Deliveries in flight finish first: their outcome decides their retry's time.
    await deliverer.settle();
    for (let steps = 0; steps < MAX_CHANGES; steps++) {
      const next = await store.transact((state) => Math.min(nextChangeAt(state), deliverer.nextAttemptAt(state)), false);
      if (next > toMs) break;
      await store.transact((state) => {
        moveClock(state, next);
        applyDueChanges(state, clockNow(state), context(), did);
      }, true);
      did.delivery_attempts += await deliverer.attemptDue();
    }
    const { now, nextChange } = await store.transact((state) => {
      moveClock(state, toMs);
      // The attempts made on the way have ids above the last one before it.
      for (const attempt of deliveryLog(state)) {
        if (!attempt.deactivated || Number(attempt.id.slice(4)) <= (lastDelivery ?? 0)) continue;
        const answer = attempt.status === null ? (attempt.error ?? 'no answer') : String(attempt.status);
        did.webhooks_switched_off.push({ webhook: attempt.webhook, at: attempt.sent_at, attempt: attempt.attempt, delivery: attempt.id, answer });
      }
      return { now: clockNow(state), nextChange: nextChangeAt(state) };
    }, true);
    did.now = isoSeconds(now);
    // Timers planned for the old time are planned again for the new one.
    deliverer.kick();
    plan(nextChange, now);
    return did;
  }

  return {
    catchUp,
    plan,
    advance,
    close: () => {
      closed = true;
      clearTimeout(timer);
    },
  };
}
