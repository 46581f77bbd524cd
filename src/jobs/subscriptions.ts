// The jobs of the platform's "Bulk Subscription Updates" guide, over a cohort of subscriptions (a
// CSV of ids, the ids given, or what `subscriptions list`'s filters select): shift each next
// renewal date (keeping its time of day and the offset the store wrote it with: the platform
// evaluates renewals in store-local time), cancel without e-mailing the customers, move card
// subscriptions to another payment gateway, and retry the renewals that are past due.
import { CANCEL_REASONS } from '../api/enums.js';
import { ApiError, UsageError } from '../api/errors.js';
import { nearest } from '../fields/nearest.js';
import type { Applied, Cells, Earlier, Job, JobIO, Verdict } from './job.js';

interface Subscription {
  id: number;
  status?: string;
  currency?: string;
  next_renewal_date?: string | null;
  payment_method?: string;
  payment_details?: { gateway?: { id?: number; name?: string } | null } | null;
}

const columns = { key: 'id', required: [], optional: [] } as const;
const aliases = { subscription: 'id', subscription_id: 'id' };

const readSubscription = async (io: JobIO, cells: Cells) => (await io.read('subscriptionsRetrieve', { params: { id: Number(cells.id) } })) as Subscription;

/** The job, its lines whose id is not a subscription id (a whole number) INVALID before anything is read. */
function byId<Settings, Target>(job: Job<Settings, Target>): Job<Settings, Target> {
  return {
    ...job,
    check: (cells, settings, io, earlier) =>
      /^\d{1,12}$/.test(cells.id ?? '') ? job.check(cells, settings, io, earlier) : Promise.resolve({ class: 'INVALID', reason: `"${cells.id ?? ''}" is not a subscription id (a whole number)` }),
  };
}

// ————— shift renewals —————

export interface ShiftSettings {
  /** Days to move each date by (negative: earlier). */
  days?: number;
  /** The day to move each date to, its time of day kept. */
  toDate?: string;
}

export function shiftSettings(flags: { days?: string; toDate?: string }): ShiftSettings {
  if ((flags.days === undefined) === (flags.toDate === undefined)) throw new UsageError('Say how to move the dates: --days N (or -N) or --to-date YYYY-MM-DD');
  if (flags.days !== undefined) {
    if (!/^[+-]?\d{1,4}$/.test(flags.days.trim()) || Number(flags.days) === 0) throw new UsageError(`--days takes a whole number of days other than 0, such as 7 or -3 (got "${flags.days}")`);
    return { days: Number(flags.days) };
  }
  const day = flags.toDate!.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) {
    throw new UsageError(`--to-date takes a day that exists, as YYYY-MM-DD (got "${flags.toDate}")`);
  }
  return { toDate: day };
}

/**
 * The date-time moved to another day, everything after the day as written: its time of day, its
 * fractions of a second and its offset (`2026-08-17T10:09:01-04:00` by 3 days: `…-20T10:09:01-04:00`).
 */
export function movedDate(value: string, settings: ShiftSettings): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(T.*)$/.exec(value);
  if (!match || Number.isNaN(Date.parse(value))) return undefined;
  if (settings.toDate) return `${settings.toDate}${match[4]}`;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + (settings.days ?? 0)));
  return `${day.toISOString().slice(0, 10)}${match[4]}`;
}

const describeShift = (settings: ShiftSettings) =>
  settings.toDate ? `to ${settings.toDate}` : `${Math.abs(settings.days!)} day${Math.abs(settings.days!) === 1 ? '' : 's'} ${settings.days! > 0 ? 'later' : 'earlier'}`;

export const shiftJob: Job<ShiftSettings, { id: number; date: string }> = byId({
  command: 'subscriptions shift-renewals',
  columns,
  aliases,
  noun: 'subscription',
  intent: (settings) => `Move each subscription's next renewal ${describeShift(settings)}, keeping its time of day`,
  async check(cells, settings, io, earlier?: Earlier): Promise<Verdict<{ id: number; date: string }>> {
    const subscription = await readSubscription(io, cells);
    const current = subscription.next_renewal_date ?? null;
    const state = `${subscription.status ?? '?'}, next renewal ${current ?? 'none'}`;
    if (subscription.status === 'canceled') return { class: 'NOT_ALLOWED', reason: 'canceled: it renews no more', state };
    if (current === null) return { class: 'NOT_ALLOWED', reason: `${subscription.status ?? 'it'} has no next renewal to move`, state };
    // On a resume, a date already moved from the one planned was moved by the earlier run.
    const planned = /next renewal (\S+)$/.exec(earlier?.state ?? '')?.[1];
    if (planned && planned !== current && movedDate(planned, settings) === current) return { class: 'ALREADY_DONE', reason: `moved to ${current}`, state };
    const date = movedDate(current, settings);
    if (date === undefined) return { class: 'INVALID', reason: `the store's next renewal "${current}" is not a date-time this job can move`, state };
    if (date === current) return { class: 'ALREADY_DONE', reason: `renews on ${current} already`, state };
    return { class: 'READY', reason: `next renewal ${current} → ${date}`, state, target: { id: subscription.id, date } };
  },
  async apply(target, _cells, _settings, io): Promise<Applied> {
    const answer = (await io.change('subscriptionsPartialUpdate', { params: { id: target.id }, body: { next_renewal_date: target.date } }, { step: 'update', object: String(target.id) })) as Subscription;
    return { done: `next renewal ${answer.next_renewal_date ?? target.date}` };
  },
});

// ————— cancel a cohort —————

export interface CancelSettings {
  reason: string;
  otherMessage?: string;
  notify: boolean;
}

export function cancelSettings(flags: { reason?: string; otherMessage?: string; notify?: true }): CancelSettings {
  if (flags.reason === undefined) throw new UsageError('--reason is required: why the cohort is canceled', { hint: `One of: ${CANCEL_REASONS.join(', ')}` });
  const reason = flags.reason.trim();
  if (!(CANCEL_REASONS as readonly string[]).includes(reason)) {
    const near = nearest(reason, CANCEL_REASONS);
    throw new UsageError(`--reason: "${flags.reason}" is not a cancel reason${near ? `; did you mean ${near}?` : ''}`, { hint: `One of: ${CANCEL_REASONS.join(', ')}` });
  }
  return { reason, ...(flags.otherMessage !== undefined ? { otherMessage: flags.otherMessage } : {}), notify: flags.notify === true };
}

export const cancelJob: Job<CancelSettings, { id: number }> = byId({
  command: 'subscriptions cancel-cohort',
  columns,
  aliases,
  noun: 'subscription',
  intent: (settings) => `Cancel each subscription (reason: ${settings.reason})${settings.notify ? ', e-mailing each customer' : ' without e-mailing the customers'}`,
  async check(cells, _settings, io): Promise<Verdict<{ id: number }>> {
    const subscription = await readSubscription(io, cells);
    const state = subscription.status ?? '?';
    if (subscription.status === 'canceled') return { class: 'ALREADY_DONE', reason: 'canceled already', state };
    return { class: 'READY', reason: `cancel (${state} now)`, state, target: { id: subscription.id } };
  },
  async apply(target, _cells, settings, io): Promise<Applied> {
    const body = { cancel_reason: settings.reason, ...(settings.otherMessage !== undefined ? { cancel_reason_other_message: settings.otherMessage } : {}), send_cancel_notification: settings.notify };
    const answer = (await io.change('subscriptionsCancelCreate', { params: { id: target.id }, body: body as never }, { step: 'cancel', object: String(target.id) })) as Subscription;
    return { done: answer.status ?? 'canceled' };
  },
});

// ————— move to another gateway —————

export interface GatewaySettings {
  /** The gateway the subscriptions move to. */
  to: number;
}

export function gatewaySettings(flags: { to?: string }): GatewaySettings {
  if (flags.to === undefined || !/^\d{1,9}$/.test(flags.to.trim())) throw new UsageError(`--to takes the id of the payment gateway to move to (see: store-admin gateways list)${flags.to === undefined ? '' : `; got "${flags.to}"`}`);
  return { to: Number(flags.to) };
}

interface Gateway {
  id: number;
  name?: string;
  active?: boolean;
  currencies?: { code?: string }[];
  card_types?: unknown[];
}

/** A payment gateway every line of a run reads alike, read once; undefined when the store has none by that id. */
const readGateway = (io: JobIO, id: number) =>
  io.remember(`gateway ${id}`, () => io.read('gatewaysRetrieve', { params: { id } }).catch((error: unknown) => (error instanceof ApiError && error.status === 404 ? undefined : Promise.reject(error)))) as Promise<Gateway | undefined>;

export const gatewayJob: Job<GatewaySettings, { id: number }> = byId({
  command: 'subscriptions move-gateway',
  columns,
  aliases,
  noun: 'subscription',
  intent: (settings) => `Move each card subscription to payment gateway ${settings.to}: its next renewals are charged there`,
  async check(cells, settings, io): Promise<Verdict<{ id: number }>> {
    const subscription = await readSubscription(io, cells);
    const from = subscription.payment_details?.gateway?.id;
    const state = `${subscription.status ?? '?'}, ${subscription.payment_method ?? '?'} on gateway ${from ?? 'none'}`;
    if (from === settings.to) return { class: 'ALREADY_DONE', reason: `on gateway ${settings.to} already`, state };
    if (subscription.status === 'canceled') return { class: 'NOT_ALLOWED', reason: 'canceled: it renews no more', state };
    if (subscription.payment_method !== 'bankcard') return { class: 'NOT_ALLOWED', reason: `it pays by ${subscription.payment_method ?? 'an unknown method'}: only a card subscription moves to another gateway`, state };
    const target = await readGateway(io, settings.to);
    const named = target?.name ? `${target.name} (${settings.to})` : `gateway ${settings.to}`;
    if (!target) return { class: 'NOT_ALLOWED', reason: `the store has no gateway ${settings.to} (see: store-admin gateways list)`, state };
    if (target.active === false) return { class: 'NOT_ALLOWED', reason: `${named} is switched off`, state };
    if (!(target.card_types ?? []).length) return { class: 'NOT_ALLOWED', reason: `${named} takes no cards`, state };
    if (subscription.currency && !(target.currencies ?? []).some((currency) => currency.code === subscription.currency)) return { class: 'NOT_ALLOWED', reason: `${named} does not take ${subscription.currency}`, state };
    return { class: 'READY', reason: `gateway ${from ?? 'none'} → ${named}`, state, target: { id: subscription.id } };
  },
  async apply(target, _cells, settings, io): Promise<Applied> {
    const answer = (await io.change('subscriptionsPartialUpdate', { params: { id: target.id }, body: { payment_details: { payment_gateway: settings.to } } }, { step: 'update', object: String(target.id) })) as Subscription;
    return { done: `on gateway ${answer.payment_details?.gateway?.id ?? settings.to}` };
  },
});

// ————— retry past-due renewals —————

export interface RetrySettings {
  /** The gateway to retry on, if not the subscription's own. */
  gateway?: number;
}

export function retrySettings(flags: { retryGateway?: string }): RetrySettings {
  if (flags.retryGateway === undefined) return {};
  if (!/^\d{1,9}$/.test(flags.retryGateway.trim())) throw new UsageError(`--retry-gateway takes a payment gateway's id (got "${flags.retryGateway}")`);
  return { gateway: Number(flags.retryGateway) };
}

export const retryJob: Job<RetrySettings, { id: number }> = byId({
  command: 'subscriptions retry-past-due',
  columns,
  aliases,
  noun: 'subscription',
  intent: (settings) => `Retry each past-due renewal${settings.gateway ? ` on gateway ${settings.gateway}` : ''}, charging the customer's saved payment method`,
  async check(cells, settings, io): Promise<Verdict<{ id: number }>> {
    const subscription = await readSubscription(io, cells);
    const state = `${subscription.status ?? '?'}, next renewal ${subscription.next_renewal_date ?? 'none'}`;
    switch (subscription.status) {
      case 'past_due': {
        // The retry charges the gateway named, else the subscription's own: one switched off cannot.
        const on = settings.gateway ?? subscription.payment_details?.gateway?.id;
        const gateway = on === undefined ? undefined : await readGateway(io, on);
        if (on !== undefined && !gateway) return { class: 'NOT_ALLOWED', reason: `the store has no gateway ${on} (see: store-admin gateways list)`, state };
        if (gateway?.active === false) {
          return { class: 'NOT_ALLOWED', reason: `${gateway.name ?? 'gateway'} (${gateway.id}) is switched off: retry on another (--retry-gateway)`, state };
        }
        return { class: 'READY', reason: 'retry the renewal it missed', state, target: { id: subscription.id } };
      }
      case 'active':
        return { class: 'ALREADY_DONE', reason: 'active: nothing is past due', state };
      case 'retrying':
        return { class: 'NOT_ALLOWED', reason: 'the store is retrying its payment already', state };
      default:
        return { class: 'NOT_ALLOWED', reason: `${subscription.status ?? 'its status is unknown'}: only a past-due subscription is retried`, state };
    }
  },
  async apply(target, _cells, settings, io): Promise<Applied> {
    const body = settings.gateway === undefined ? {} : { payment_gateway: settings.gateway };
    const answer = (await io.change('subscriptionsRetryCreate', { params: { id: target.id }, body }, { step: 'retry', object: String(target.id) })) as Subscription;
    return { done: `${answer.status ?? 'retried'}${answer.next_renewal_date ? `, next renewal ${answer.next_renewal_date}` : ''}` };
  },
});
