// The fulfillment-order lifecycle of the platform's guides. A merchant holds and releases,
// requests fulfillment from the location (which accepts or rejects), requests cancellation of
// what a location accepted (which it accepts or rejects), moves what is open to another location
// that stocks it, or cancels; a location closes what it cannot finish as incomplete. Each rule
// asks supportedActions() first, so a refusal and `supported_actions` never disagree.
import type { FulfillmentOrder } from '../../api/generated/types.js';
import type { OperationId } from '../../api/operations.js';
import type { Rule, RuleContext } from '../engine.js';
import {
  availableLocations,
  fulfillable,
  everythingLeft,
  expectAction,
  findFulfillmentOrder,
  locationName,
  orderFollows,
  splitOff,
  touch,
  unitsNamed,
  variantOf,
  type FoRecord,
} from '../fulfillment.js';
import { HttpError } from '../http-error.js';
import { allocate, release, stockRecordAt } from '../stock.js';
import type { FulfillmentOrderAction } from '../supported-actions.js';

/** A change of state the fulfillment order's state must support; the order follows. */
function lifecycle(action: FulfillmentOrderAction, doing: string, change: (fo: FoRecord, ctx: RuleContext) => void): Rule {
  return (ctx) => {
    const fo = findFulfillmentOrder(ctx);
    expectAction(fo, action, doing);
    change(fo, ctx);
    touch(ctx, fo);
    orderFollows(ctx, fo.order_number);
    return ctx.answer(fo);
  };
}

const to =
  (status: FulfillmentOrder['status'], requestStatus: FulfillmentOrder['request_status']) =>
  (fo: FoRecord): void => {
    fo.status = status;
    fo.request_status = requestStatus;
  };

/** Requested units stay in the fulfillment order; the rest, if any, split off into one of their own, unrequested. */
const requestFulfillment: Rule = (ctx) => {
  const fo = findFulfillmentOrder(ctx);
  expectAction(fo, 'request_fulfillment', 'be requested from its location');
  const original = structuredClone(fo);
  const requested = unitsNamed(fo, ctx.body?.fulfillment_order_line_items, 'fulfillment_order_line_items');
  const rest = new Map([...everythingLeft(fo)].map(([id, units]) => [id, units - (requested.get(id) ?? 0)] as const).filter(([, units]) => units > 0));
  const unrequested = rest.size > 0 ? splitOff(ctx, fo, rest, { request_status: 'pending' }) : undefined;
  fo.request_status = 'requested';
  fo.merchant_requests = [...(fo.merchant_requests ?? []), { type: 'fulfill_request', message: ctx.body?.message ?? null, notify: ctx.body?.notify ?? false }];
  touch(ctx, fo);
  orderFollows(ctx, fo.order_number);
  return ctx.answer({
    original_fulfillment_order: original,
    requested_fulfillment_order: fo,
    // The reference requires all three: with nothing left unrequested, the original with no line left stands for it.
    unrequested_fulfillment_order: unrequested ?? { ...original, line_items: [] },
  });
};

/** All the fulfillment order's units, or the lines named, go to another of the locations that can take them. */
const move: Rule = (ctx) => {
  const fo = findFulfillmentOrder(ctx);
  expectAction(fo, 'move', 'be moved');
  const { records } = ctx.state;
  const target = ctx.body.new_location_id as number;
  if (!records.locations[String(target)]) throw new HttpError(400, { new_location_id: [`Invalid pk "${target}" - object does not exist.`] });
  if (String(target) === String(fo.location_id)) throw new HttpError(400, { new_location_id: [`Fulfillment order ${fo.id} is already at ${locationName(records, target)}.`] });
  // Lines move whole: every unit they have left.
  const units = unitsNamed(fo, ctx.body.fulfillment_order_line_items, 'fulfillment_order_line_items');
  const available = availableLocations(records, fo);
  const cannot = [...units.keys()].filter((id) => !available.get(String(target))?.fulfillment_order_line_ids.includes(id));
  if (cannot.length > 0) {
    const elsewhere = [...available.values()].map((l) => `${l.id} (${l.name}: lines ${l.fulfillment_order_line_ids.join(', ')})`).join('; ');
    throw new HttpError(400, {
      new_location_id: [
        `${locationName(records, target)} cannot take line${cannot.length === 1 ? '' : 's'} ${cannot.join(', ')} of fulfillment order ${fo.id}: it does not stock ${cannot.length === 1 ? 'it' : 'them'} or has too few units. ${elsewhere ? `Locations that can: ${elsewhere}.` : 'No other location can.'}`,
      ],
    });
  }
  const whole = fo.line_items.every((line) => (units.get(line.id) ?? 0) === Number(line.quantity ?? 0));
  const moved = whole ? fo : splitOff(ctx, fo, units, {});
  moved.location_id = target;
  moved.request_status = 'pending';
  // The units leave the old location's allocation for the new one's.
  for (const line of moved.line_items) {
    release(records, line.stockrecord_id, fulfillable(line), ctx.now);
    line.stockrecord_id = stockRecordAt(records, variantOf(records, line), target)!.id as number;
    allocate(records, line.stockrecord_id, fulfillable(line), ctx.now);
  }
  touch(ctx, moved);
  orderFollows(ctx, fo.order_number);
  return ctx.answer({ moved_fulfillment_order: moved, original_fulfillment_order: fo });
};

/**
 * Canceled, with a new open fulfillment order at the same location for the units it had left:
 * they stay allocated there, now to the new one.
 */
const cancel: Rule = (ctx) => {
  const fo = findFulfillmentOrder(ctx);
  expectAction(fo, 'cancel', 'be canceled');
  const lines = fo.line_items.map((line) => ({ ...structuredClone(line), fulfillable_quantity: '0' }));
  const replacement = splitOff(ctx, fo, everythingLeft(fo), { status: 'open', request_status: 'pending' });
  // The canceled one keeps its lines, with nothing left to fulfil in them.
  Object.assign(fo, { line_items: lines, status: 'canceled', request_status: 'closed' });
  touch(ctx, fo);
  orderFollows(ctx, fo.order_number);
  return ctx.answer({ original_fulfillment_order: fo, new_fulfillment_order: replacement });
};

export const fulfillmentOrderRules: Partial<Record<OperationId, Rule>> = {
  fulfillmentOrdersHold: lifecycle('hold', 'be held', (fo, ctx) => {
    fo.status = 'on_hold';
    fo.fulfillment_holds = [...(fo.fulfillment_holds ?? []), { created_at: ctx.now, reason: ctx.body.reason, reason_message: ctx.body.reason_message ?? null }];
  }),
  fulfillmentOrdersReleaseHold: lifecycle('release_hold', 'be released', (fo) => {
    fo.status = 'open';
    fo.fulfillment_holds = [];
  }),

  fulfillmentRequestSend: requestFulfillment,
  fulfillmentRequestAccept: lifecycle('fulfillment_request_accept', 'have its fulfillment request accepted', to('processing', 'accepted')),
  fulfillmentRequestReject: lifecycle('fulfillment_request_reject', 'have its fulfillment request rejected', to('open', 'rejected')),
  fulfillmentRequestCancel: lifecycle('fulfillment_request_cancel', 'have its fulfillment request taken back', to('open', 'pending')),

  cancellationRequestSend: lifecycle('request_cancellation', 'have its cancellation requested', (fo, ctx) => {
    fo.request_status = 'cancel_requested';
    fo.merchant_requests = [...(fo.merchant_requests ?? []), { type: 'cancel_request', message: ctx.body?.message ?? null, notify: false }];
  }),
  // The location gives the units back: open again, ready to be requested again or moved.
  cancellationRequestAccept: lifecycle('cancellation_request_accept', 'have a cancellation accepted', to('open', 'cancel_accepted')),
  cancellationRequestReject: lifecycle('cancellation_request_reject', 'have a cancellation rejected', to('processing', 'cancel_rejected')),
  cancellationRequestCancel: lifecycle('cancellation_request_cancel', 'have its cancellation request taken back', to('processing', 'accepted')),

  fulfillmentOrdersMove: move,
  availableLocationsRetrieve: (ctx) => ctx.answer({ available_locations: Object.fromEntries(availableLocations(ctx.state.records, findFulfillmentOrder(ctx))) }),
  fulfillmentOrdersCancel: cancel,
  // A location that cannot finish marks the fulfillment order incomplete.
  fulfillmentOrdersClose: lifecycle('close', 'be closed', to('incomplete', 'closed')),
};
