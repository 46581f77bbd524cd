// `fulfillment-orders fulfill`: the platform's fulfilment with tracking, from a CSV of
// order_number,tracking_code,carrier (and notify), or the order numbers given with one tracking.
// Each order's fulfillment orders are read: the one its location is working on (`processing`) is
// fulfilled, else the one still `open`; two of either are for a person to choose. Everything it
// has left is fulfilled in one fulfilment with the line's tracking (POST
// /fulfillment-orders/{id}/fulfillments/), which the store answers with `tracking_carrier`. The
// carrier is checked against the platform's list before anything is sent.
import { CARRIERS } from '../api/enums.js';
import { UsageError } from '../api/errors.js';
import { nearest } from '../fields/nearest.js';
import type { Applied, Cells, Earlier, Job, JobIO, Verdict } from './job.js';

export interface FulfilSettings {
  /** E-mail each customer that the order has shipped (a line's `notify` cell says otherwise for it). */
  notify: boolean;
  /** The tracking of the order numbers given as arguments (a file's lines carry their own). */
  trackingCode?: string;
  carrier?: string;
}

/** What the flags of `fulfillment-orders fulfill` give (src/commands/fulfillment-orders.ts declares them). */
export interface FulfilFlags {
  trackingCode?: string;
  carrier?: string;
  notify?: boolean;
}

export function fulfilSettings(flags: FulfilFlags): FulfilSettings {
  if (flags.carrier !== undefined && carrierOf(flags.carrier) === undefined) throw new UsageError(unknownCarrier(flags.carrier, '--carrier'));
  return {
    notify: flags.notify !== false,
    ...(flags.trackingCode !== undefined ? { trackingCode: flags.trackingCode.trim() } : {}),
    ...(flags.carrier !== undefined ? { carrier: carrierOf(flags.carrier) } : {}),
  };
}

/** A carrier as people write it (`UPS`, `Royal Mail`, `dhl-ecommerce`), as the platform names it; undefined when it knows none such. */
function carrierOf(text: string): string | undefined {
  const name = text.trim().toLowerCase().replace(/[\s-]+/g, '_');
  return CARRIERS.find((carrier) => carrier === name);
}

function unknownCarrier(text: string, where: string): string {
  const near = nearest(text.replace(/[\s-]+/g, '_'), CARRIERS);
  return `${where}: "${text}" is not a carrier the platform knows${near ? ` (did you mean ${near}?)` : ''}; the platform's carriers: ${CARRIERS.join(', ')}`;
}

const NOTIFY_WORDS: Readonly<Record<string, boolean>> = { true: true, yes: true, y: true, '1': true, false: false, no: false, n: false, '0': false };

interface FoLine {
  fulfillable_quantity?: string | number | null;
}

interface FulfillmentOrder {
  id: number;
  status?: string;
  request_status?: string;
  line_items?: FoLine[] | null;
  supported_actions?: string[] | null;
}

interface FulfilTarget {
  fulfillmentOrder: number;
  body: { notify: boolean; tracking_info: { carrier: string; tracking_code: string }[] };
}

/** The units a fulfillment order has left to fulfil. */
const unitsLeft = (fo: FulfillmentOrder) => (fo.line_items ?? []).reduce((sum, line) => sum + Math.max(0, Math.trunc(Number(line.fulfillable_quantity ?? 0)) || 0), 0);

/** `401 processing/accepted 3`: what the plan keeps of each fulfillment order, so that --apply-plan sees any change. */
const describe = (fo: FulfillmentOrder) => `${fo.id} ${fo.status ?? '?'}/${fo.request_status ?? '?'} ${unitsLeft(fo)}`;

/** Why a fulfillment order that has units left cannot be fulfilled now; undefined when it can. */
function obstacle(fo: FulfillmentOrder): string | undefined {
  const at = `fulfillment order ${fo.id}`;
  if (fo.status === 'open' && fo.request_status === 'requested') return `${at} awaits its location's answer to the fulfillment request: the location fulfils it once it accepts`;
  if (fo.request_status === 'cancel_requested') return `${at} has a cancellation request pending: its location answers it first (or take it back: store-admin fulfillment-orders cancellation-request-cancel ${fo.id})`;
  if (fo.status === 'on_hold') return `${at} is on hold: release it first (store-admin fulfillment-orders release-hold ${fo.id})`;
  if (fo.status === 'incomplete') return `${at} was left incomplete by its location: fulfil the rest by hand (store-admin fulfillment-orders fulfillments create ${fo.id}) or cancel it`;
  if (fo.status === 'closed') return `${at} was closed with ${unitsLeft(fo)} units unfulfilled`;
  if (Array.isArray(fo.supported_actions) && !fo.supported_actions.includes('create_fulfillment')) {
    return `${at} (${fo.status ?? '?'}, request ${fo.request_status ?? '?'}) cannot be fulfilled now; it supports ${fo.supported_actions.join(', ') || 'no action'}`;
  }
  return undefined;
}

export const fulfilJob: Job<FulfilSettings, FulfilTarget> = {
  command: 'fulfillment-orders fulfill',
  columns: { key: 'order_number', required: ['tracking_code', 'carrier'], optional: ['notify'] },
  aliases: { number: 'order_number', order: 'order_number', tracking: 'tracking_code', tracking_number: 'tracking_code' },
  noun: 'order',
  intent: (settings) => `Fulfil each order's fulfillment order with its tracking${settings.notify ? ', e-mailing each customer that it has shipped' : ''}`,

  async check(cells: Cells, settings: FulfilSettings, io: JobIO, earlier?: Earlier): Promise<Verdict<FulfilTarget>> {
    const number = cells.order_number!;
    // The line itself first: a carrier the platform does not know, no tracking, a notify that is neither yes nor no.
    const code = cells.tracking_code || settings.trackingCode || '';
    const given = cells.carrier || settings.carrier || '';
    if (!code) return { class: 'INVALID', reason: 'no tracking code (a tracking_code column, or --tracking-code)' };
    if (!given) return { class: 'INVALID', reason: 'no carrier (a carrier column, or --carrier)' };
    const carrier = carrierOf(given);
    if (!carrier) return { class: 'INVALID', reason: unknownCarrier(given, 'carrier') };
    const notify = cells.notify ? NOTIFY_WORDS[cells.notify.trim().toLowerCase()] : settings.notify;
    if (notify === undefined) return { class: 'INVALID', reason: `notify: "${cells.notify}" is neither yes nor no` };

    const fos = ((await io.read('ordersFulfillmentOrdersRetrieve', { params: { number } })) as FulfillmentOrder[] | null) ?? [];
    const all = (Array.isArray(fos) ? fos : []).filter((fo) => fo && typeof fo.id === 'number').sort((a, b) => a.id - b.id);
    const state = all.map(describe).join('; ') || 'no fulfillment orders';
    // On a resume: the fulfillment order an earlier run sent the fulfilment to, with nothing left now, was fulfilled by it.
    const sentTo = all.find((fo) => earlier?.object !== undefined && String(fo.id) === earlier.object);
    if (sentTo && unitsLeft(sentTo) === 0) return { class: 'ALREADY_DONE', reason: `fulfillment order ${sentTo.id} was fulfilled by the earlier run`, state, object: String(sentTo.id) };

    const left = all.filter((fo) => unitsLeft(fo) > 0 && fo.status !== 'canceled' && fo.status !== 'not_required');
    const processing = left.filter((fo) => fo.status === 'processing');
    const candidates = processing.length > 0 ? processing : left.filter((fo) => fo.status === 'open');
    if (candidates.length > 1) {
      return { class: 'MULTIPLE', reason: `${candidates.length} ${candidates[0]!.status} fulfillment orders (${candidates.map((fo) => fo.id).join(', ')}): fulfil each by hand (store-admin fulfillment-orders fulfillments create ID)`, state };
    }
    const fo = candidates[0];
    if (!fo) {
      if (left.length > 0) return { class: 'NOT_ALLOWED', reason: left.map((blocked) => obstacle(blocked) ?? `fulfillment order ${blocked.id} is ${blocked.status ?? '?'}`).join('; '), state, object: String(left[0]!.id) };
      if (all.length === 0) return { class: 'NOT_ALLOWED', reason: `order ${number} has no fulfillment order to fulfil`, state };
      if (all.every((each) => each.status === 'canceled')) return { class: 'NOT_ALLOWED', reason: `its fulfillment order${all.length === 1 ? ' was' : 's were'} canceled`, state };
      if (all.every((each) => each.status === 'not_required' || each.status === 'canceled')) return { class: 'NOT_ALLOWED', reason: 'nothing of it needs shipping', state };
      return { class: 'ALREADY_DONE', reason: 'nothing left to fulfil', state };
    }
    const blocked = obstacle(fo);
    if (blocked) return { class: 'NOT_ALLOWED', reason: blocked, state, object: String(fo.id) };
    const units = unitsLeft(fo);
    return {
      class: 'READY',
      reason: `fulfil fulfillment order ${fo.id} (${fo.status}, ${units} unit${units === 1 ? '' : 's'}) with ${carrier} ${code}${notify ? '' : ', no e-mail'}`,
      state,
      object: String(fo.id),
      target: { fulfillmentOrder: fo.id, body: { notify, tracking_info: [{ carrier, tracking_code: code }] } },
    };
  },

  async apply(target: FulfilTarget, _cells: Cells, _settings: FulfilSettings, io: JobIO): Promise<Applied> {
    const fulfillment = (await io.change('fulfillmentsCreate', { params: { id: target.fulfillmentOrder }, body: target.body as never }, { step: 'fulfil', object: String(target.fulfillmentOrder) })) as {
      id?: number;
      tracking_carrier?: string;
      tracking_code?: string;
    };
    return { done: `fulfilment ${fulfillment.id ?? '?'} of fulfillment order ${target.fulfillmentOrder}: ${fulfillment.tracking_carrier ?? '?'} ${fulfillment.tracking_code ?? ''}`.trimEnd() };
  },
};
