// Every request constraint of the spec, accepted and rejected: by the client before sending,
// and by the sandbox when sent raw (both read the same schemas).
import { describe, expect, it } from 'vitest';
import { loadOperation, type OperationId } from '../../src/api/operations.js';
import { ValidationError } from '../../src/api/errors.js';
import { CANCEL_REASONS, DISPUTE_RESOLUTIONS, EXPORT_TYPES } from '../../src/api/enums.js';
import { fillPath } from '../../src/api/url.js';
import { DISPUTE_RESOLUTIONS_OF } from '../../src/sandbox/settings.js';
import { FULL_TOKEN, raw, useSandbox } from '../helpers.js';

type Case = [label: string, id: OperationId, params: Record<string, unknown>, body: unknown, ok: boolean];

const range = { date_from: '2026-01-01T00:00:00Z', date_to: '2026-02-01T00:00:00+01:00' };
const hook = { events: ['order.created'], target: 'https://example.com/hook' };
/** A type of dispute the resolution fits: a chargeback's outcome, else an alert's. */
const resolvedType = (resolution: string) => ((DISPUTE_RESOLUTIONS_OF.chargeback as readonly string[]).includes(resolution) ? 'chargeback' : 'alert');
const address = { first_name: 'Ada', last_name: 'Lovelace', line1: '1 Main St', line4: 'Springfield', country: 'US' };

const cases: Case[] = [
  ...CANCEL_REASONS.map((r): Case => [`cancel reason ${r}`, 'subscriptionsCancelCreate', { id: 2 }, { cancel_reason: r }, true]),
  ['cancel reason unknown', 'subscriptionsCancelCreate', { id: 2 }, { cancel_reason: 'bored' }, false],
  ['cancel reason missing', 'subscriptionsCancelCreate', { id: 2 }, {}, false],
  ['cancel other message null', 'subscriptionsCancelCreate', { id: 2 }, { cancel_reason: 'other', cancel_reason_other_message: null }, true],
  ['cancel notification not boolean', 'subscriptionsCancelCreate', { id: 2 }, { cancel_reason: 'other', send_cancel_notification: 'no' }, false],
  ['update empty body', 'subscriptionsPartialUpdate', { id: 1 }, {}, true],
  ...(['day', 'week', 'month', 'year'] as const).map((i): Case => [`interval ${i}`, 'subscriptionsPartialUpdate', { id: 1 }, { interval: i }, true]),
  ['interval fortnight', 'subscriptionsPartialUpdate', { id: 1 }, { interval: 'fortnight' }, false],
  ['interval_count 1', 'subscriptionsPartialUpdate', { id: 1 }, { interval_count: 1 }, true],
  ['interval_count 0', 'subscriptionsPartialUpdate', { id: 1 }, { interval_count: 0 }, false],
  ['interval_count 1.5', 'subscriptionsPartialUpdate', { id: 1 }, { interval_count: 1.5 }, false],
  // The reference bounds interval_count below only (the spec's 32-bit range is about answers).
  ['interval_count above int32', 'subscriptionsPartialUpdate', { id: 1 }, { interval_count: 2147483648 }, true],
  ...(['active', 'past_due', 'canceled', 'retrying'] as const).map((s): Case => [`status ${s}`, 'subscriptionsPartialUpdate', { id: 1 }, { status: s }, true]),
  ['status paused', 'subscriptionsPartialUpdate', { id: 1 }, { status: 'paused' }, false],
  ...['1234567.89', '-5', '0.5', '.5', '12.'].map((p): Case => [`shipping_price ${p}`, 'subscriptionsPartialUpdate', { id: 1 }, { shipping_price: p }, true]),
  ...['12345678', '1.234', 'abc', '', '1e3', '--1'].map((p): Case => [`shipping_price ${JSON.stringify(p)}`, 'subscriptionsPartialUpdate', { id: 1 }, { shipping_price: p }, false]),
  ['shipping_price null', 'subscriptionsPartialUpdate', { id: 1 }, { shipping_price: null }, true],
  ['shipping_price number', 'subscriptionsPartialUpdate', { id: 1 }, { shipping_price: 5 }, false],
  ['next_renewal_date with offset', 'subscriptionsPartialUpdate', { id: 1 }, { next_renewal_date: '2026-03-01T10:00:00+02:00' }, true],
  ['next_renewal_date null', 'subscriptionsPartialUpdate', { id: 1 }, { next_renewal_date: null }, true],
  ['next_renewal_date plain date', 'subscriptionsPartialUpdate', { id: 1 }, { next_renewal_date: '2026-03-01' }, false],
  ['next_renewal_date no zone', 'subscriptionsPartialUpdate', { id: 1 }, { next_renewal_date: '2026-03-01T10:00:00' }, false],
  ['addresses as objects or null', 'subscriptionsPartialUpdate', { id: 1 }, { shipping_address: address, billing_address: null, payment_details: null, attribution: {} }, true],
  ['address without the fields the reference requires', 'subscriptionsPartialUpdate', { id: 1 }, { shipping_address: { line1: 'x' } }, false],
  ['attribution null', 'subscriptionsPartialUpdate', { id: 1 }, { attribution: null }, false],
  ['is_test not boolean', 'subscriptionsPartialUpdate', { id: 1 }, { is_test: 'yes' }, false],
  ['unknown update field', 'subscriptionsPartialUpdate', { id: 1 }, { colour: 'red' }, false],
  ...EXPORT_TYPES.map((t): Case => [`export type ${t}`, 'exportsCreate', {}, { ...range, type: t }, true]),
  ['export type unknown', 'exportsCreate', {}, { ...range, type: 'everything' }, false],
  ['export without date_to', 'exportsCreate', {}, { type: 'order_list', date_from: range.date_from }, false],
  ['export bad date', 'exportsCreate', {}, { ...range, date_from: 'yesterday', type: 'order_list' }, false],
  ['dispute empty', 'disputesCreate', {}, {}, true],
  // Each with a type it resolves (the dispute guide's split; a new dispute is a chargeback unless it says).
  ...DISPUTE_RESOLUTIONS.map((r): Case => [`dispute resolution ${r}`, 'disputesCreate', {}, { resolution: r, type: resolvedType(r) }, true]),
  ['dispute resolution empty string', 'disputesCreate', {}, { resolution: '' }, true],
  ['dispute resolution null', 'disputesCreate', {}, { resolution: null }, true],
  ['dispute resolution unknown', 'disputesCreate', {}, { resolution: 'shrug' }, false],
  ['dispute type alert', 'disputesCreate', {}, { type: 'alert' }, true],
  ['dispute type unknown', 'disputesCreate', {}, { type: 'refund' }, false],
  ['dispute amount 123456.78', 'disputesCreate', {}, { amount: '123456.78' }, true],
  ['dispute amount 1234567', 'disputesCreate', {}, { amount: '1234567' }, false],
  ['dispute amount -0.01', 'disputesCreate', {}, { amount: '-0.01' }, true],
  // Written out in full in the answer: "0.50", as a store's decimal field gives it back.
  ['dispute amount .5', 'disputesCreate', {}, { amount: '.5' }, true],
  ['dispute happened_at null', 'disputesCreate', {}, { happened_at: null }, false],
  ['webhook minimal', 'webhooksCreate', {}, hook, true],
  ['webhook unknown event name', 'webhooksCreate', {}, { ...hook, events: ['made.up'] }, true],
  // The reference's events are a list of names, possibly empty, any name (null too) allowed.
  ['webhook no events', 'webhooksCreate', {}, { ...hook, events: [] }, true],
  ['webhook empty event name', 'webhooksCreate', {}, { ...hook, events: [''] }, true],
  ['webhook events missing', 'webhooksCreate', {}, { target: hook.target }, false],
  ['webhook target 255 chars', 'webhooksCreate', {}, { ...hook, target: `https://example.com/${'a'.repeat(235)}` }, true],
  ['webhook target 256 chars', 'webhooksCreate', {}, { ...hook, target: `https://example.com/${'a'.repeat(236)}` }, false],
  ['webhook target not a URL', 'webhooksCreate', {}, { ...hook, target: 'example.com/hook' }, false],
  // The reference asks for a URI; the platform takes web and FTP addresses, with no spaces.
  ['webhook target ftp', 'webhooksCreate', {}, { ...hook, target: 'ftp://example.com/hook' }, true],
  ['webhook target with a space', 'webhooksCreate', {}, { ...hook, target: 'https://example.com/my hook' }, false],
  ['webhook target with a tab', 'webhooksCreate', {}, { ...hook, target: 'https://example.com/\thook' }, false],
  ['webhook target mailto', 'webhooksCreate', {}, { ...hook, target: 'mailto:ops@example.com' }, false],
  ['webhook target javascript', 'webhooksCreate', {}, { ...hook, target: 'javascript:alert(1)' }, false],
  ['webhook nullable strings', 'webhooksCreate', {}, { ...hook, name: null, secret_key: null, api_version: null, active: false }, true],
  // The reference requires a message, of any length.
  ['order note empty', 'ordersNotesCreate', { number: '10001' }, { message: '' }, true],
  ['order note missing', 'ordersNotesCreate', { number: '10001' }, {}, false],
  ['customer note', 'usersNotesCreate', { id: 2 }, { message: 'x' }, true],
  ['reject with null message', 'cancellationRequestReject', { id: 401 }, { message: null }, true],
  ['app settings arbitrary', 'appsSettingsPartialUpdate', { clientId: 'sandbox-app' }, { a: { b: [1, null] } }, true],
  ['app settings not an object', 'appsSettingsPartialUpdate', { clientId: 'sandbox-app' }, 'text', false],
];

const paramCases: [string, OperationId, Record<string, unknown>, boolean][] = [
  ['id 2147483647', 'categoriesRetrieve', { id: 2147483647 }, true],
  ['id 2147483648', 'categoriesRetrieve', { id: 2147483648 }, false],
  ['id 0', 'categoriesRetrieve', { id: 0 }, false],
  ['id -1', 'categoriesRetrieve', { id: -1 }, false],
  ['id 1.5', 'categoriesRetrieve', { id: 1.5 }, false],
  ['id as text', 'categoriesRetrieve', { id: '1' }, false],
  ['empty order number', 'ordersNotesCreate', { number: '' }, false],
];

describe('request constraints in the client', () => {
  const ctx = useSandbox();

  it.each(cases)('%s', async (_label, id, params, body, ok) => {
    const attempt = ctx.client.prepare(id, { params, body } as never);
    if (ok) await expect(attempt).resolves.toMatchObject({ method: (await loadOperation(id)).method });
    else await expect(attempt).rejects.toBeInstanceOf(ValidationError);
  });

  it.each(paramCases)('path parameter %s', async (_label, id, params, ok) => {
    // An operation that takes no body refuses one: only the note gets its message.
    const body = id === 'ordersNotesCreate' ? { message: 'x' } : undefined;
    const attempt = ctx.client.prepare(id, { params, body } as never).then((call) => ctx.client.request(call));
    if (ok) await expect(attempt).resolves.toMatchObject({ url: expect.stringContaining(fillPath((await loadOperation(id)).path, params)) });
    else await expect(attempt).rejects.toBeInstanceOf(ValidationError);
  });
});

/**
 * What a partial update (PATCH) may leave out in the store, a nested object's required fields
 * too, as the platform's framework takes partial updates (its order-management guide patches a
 * shipping address without the names); the client still asks for them.
 */
const PARTIAL_IN_THE_STORE = new Set(['address without the fields the reference requires']);

/** A field the operation does not have: the platform's framework drops it and takes the rest; the client refuses it. */
const IGNORED_BY_THE_STORE = new Set(['unknown update field']);

describe('request constraints in the sandbox', () => {
  const ctx = useSandbox();

  it.each(cases)('%s', async (_label, id, params, body, ok) => {
    const op = await loadOperation(id);
    const response = await raw(ctx.sandbox, op.method, fillPath(op.path, params), {
      headers: {
        authorization: `Bearer ${FULL_TOKEN}`,
        'x-store-api-version': op.version,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    // Accepted bodies may still meet a state rule (cancel twice); only validation answers 400 with field errors.
    const fieldErrors = response.status === 400 && response.body !== undefined && !('detail' in response.body);
    expect(fieldErrors).toBe(!ok && !PARTIAL_IN_THE_STORE.has(_label) && !IGNORED_BY_THE_STORE.has(_label));
    if (IGNORED_BY_THE_STORE.has(_label)) {
      expect(response.status).toBe(200);
      for (const key of Object.keys(body as object)) expect(response.body).not.toHaveProperty(key);
    }
  });

  // The reference sets no lower bound on a dispute's transaction: the client sends 0, and the
  // store refuses it as a transaction that does not exist.
  it('dispute transaction 0', async () => {
    await expect(ctx.client.prepare('disputesCreate', { body: { transaction: 0 } })).resolves.toMatchObject({ method: 'POST' });
    const response = await raw(ctx.sandbox, 'POST', '/disputes/', {
      headers: { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': '2024-04-01', 'content-type': 'application/json' },
      body: JSON.stringify({ transaction: 0 }),
    });
    expect(response).toEqual({ status: 400, body: { transaction: ['Invalid pk "0" - object does not exist.'] } });
  });
});
