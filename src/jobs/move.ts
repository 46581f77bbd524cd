// `fulfillment-orders move`: the platform's guide to moving fulfillment orders, for many orders.
// Each order's fulfillment order still to fulfil is found (among those with the SKUs, or at the
// location, a selection names) and the target checked against the locations that can take its
// lines. An open one is moved; one its location has accepted has its cancellation requested first,
// as the platform requires, and is moved once the location accepts (its `supported_actions` then
// offer `move`). Who accepts is the location (a fulfillment service), in its own time: the run
// waits for it, up to --wait-timeout.
import { ApiError, UsageError } from '../api/errors.js';
import type { Applied, Job, JobIO, Verdict } from './job.js';

export interface MoveSettings {
  /** The location the fulfillment orders move to. */
  to: number;
  /** Only fulfillment orders with a line of one of these SKUs. */
  sku?: string[];
  /** Only fulfillment orders at this location. */
  from?: number;
}

const LOCATION_ID = /^\d{1,9}$/;

export function moveSettings(flags: { to?: string; sku?: string[]; from?: string }): MoveSettings {
  if (flags.to === undefined || !LOCATION_ID.test(flags.to.trim())) {
    throw new UsageError(`--to takes the id of the location to move to (see: store-admin locations list)${flags.to === undefined ? '' : `; got "${flags.to}"`}`);
  }
  if (flags.from !== undefined && !LOCATION_ID.test(flags.from.trim())) throw new UsageError(`--from takes a location's id (got "${flags.from}")`);
  const skus = flags.sku?.flatMap((sku) => sku.split(',')).map((sku) => sku.trim()).filter(Boolean);
  if (flags.sku !== undefined && !skus?.length) throw new UsageError('--sku takes one SKU or more');
  if (flags.from !== undefined && Number(flags.from) === Number(flags.to)) throw new UsageError('--from and --to name the same location: nothing would move');
  return { to: Number(flags.to), ...(skus?.length ? { sku: skus } : {}), ...(flags.from !== undefined ? { from: Number(flags.from) } : {}) };
}

/** The selection's filters as typed (`--sku MUG --from 1`): the journal keeps them, and a resume finds its run by them. */
export const selectionOf = (settings: MoveSettings): string | undefined =>
  [settings.sku && `--sku ${settings.sku.join(',')}`, settings.from !== undefined && `--from ${settings.from}`].filter(Boolean).join(' ') || undefined;

interface FulfillmentOrder {
  id: number;
  status?: string;
  request_status?: string;
  order_number?: string;
  assigned_location?: { id?: number; name?: string } | null;
  supported_actions?: string[] | null;
  line_items?: { id?: number; sku?: string | null }[];
}

/** The statuses a fulfillment order may move from, now or once something is done first (a hold released, a cancellation accepted). */
const LIVE = new Set(['open', 'processing', 'on_hold']);

const locationOf = (fo: FulfillmentOrder) => fo.assigned_location?.id;
const stateOf = (fo: FulfillmentOrder) => `fulfillment order ${fo.id} at location ${locationOf(fo) ?? '?'}, ${fo.status ?? '?'}/${fo.request_status ?? '?'}`;
const can = (fo: FulfillmentOrder, action: string) => (fo.supported_actions ?? []).includes(action);

export interface MoveTarget {
  id: number;
  /** Move it, request its cancellation first, or wait for the location to answer the request pending. */
  step: 'move' | 'request_cancellation' | 'await_cancellation';
  location: number;
}

export const moveJob: Job<MoveSettings, MoveTarget> = {
  command: 'fulfillment-orders move',
  columns: { key: 'order_number', required: [], optional: [] },
  aliases: { number: 'order_number', order: 'order_number' },
  noun: 'order',
  intent: (settings) =>
    `Move each order's fulfillment order${settings.sku ? ` with ${settings.sku.join(', ')}` : ''}${settings.from !== undefined ? ` at location ${settings.from}` : ''} to location ${settings.to}; one a location has accepted has its cancellation requested first and moves once the location accepts`,
  async check(cells, settings, io): Promise<Verdict<MoveTarget>> {
    const target = await targetLocation(io, settings.to);
    if (target === null) return { class: 'INVALID', reason: `the store has no location ${settings.to} (see: store-admin locations list)` };
    const number = cells.order_number!;
    const fos = (await io.read('ordersFulfillmentOrdersRetrieve', { params: { number } })) as FulfillmentOrder[] | { results?: FulfillmentOrder[] };
    const all = (Array.isArray(fos) ? fos : (fos.results ?? [])).filter((fo) => !settings.sku || (fo.line_items ?? []).some((line) => settings.sku!.includes(line.sku ?? '')));
    const there = all.filter((fo) => locationOf(fo) === settings.to && (LIVE.has(fo.status ?? '') || fo.status === 'closed'));
    const candidates = all.filter((fo) => LIVE.has(fo.status ?? '') && locationOf(fo) !== settings.to && (settings.from === undefined || locationOf(fo) === settings.from));
    if (candidates.length === 0) {
      if (there.length > 0) return { class: 'ALREADY_DONE', reason: `at ${target} already (fulfillment order ${there.map((fo) => fo.id).join(', ')})`, object: String(there[0]!.id), state: there.map(stateOf).join('; ') };
      const which = [settings.sku && `with ${settings.sku.join(', ')}`, settings.from !== undefined && `at location ${settings.from}`].filter(Boolean).join(' ');
      return { class: 'NOT_FOUND', reason: `order ${number} has no fulfillment order ${which ? `${which} ` : ''}left to fulfil` };
    }
    if (candidates.length > 1) {
      return { class: 'MULTIPLE', reason: `fulfillment orders ${candidates.map((fo) => `${fo.id} (location ${locationOf(fo) ?? '?'})`).join(', ')} could move: move the one meant by hand`, state: candidates.map(stateOf).join('; ') };
    }
    const fo = candidates[0]!;
    const state = stateOf(fo);
    const object = String(fo.id);
    // The target first: a location that cannot take every line is no place to move the order to.
    const available = ((await io.read('availableLocationsRetrieve', { params: { id: fo.id } })) as { available_locations?: Record<string, { fulfillment_order_line_ids?: number[] }> }).available_locations ?? {};
    const takes = available[String(settings.to)]?.fulfillment_order_line_ids ?? [];
    const lines = (fo.line_items ?? []).map((line) => line.id);
    const left = lines.filter((id) => id !== undefined && !takes.includes(id));
    if (takes.length === 0 || left.length > 0) {
      const some = takes.length > 0 ? `takes only line${takes.length === 1 ? '' : 's'} ${takes.join(', ')} of ${lines.join(', ')}` : 'cannot take its lines (it does not stock them, or has too few)';
      const elsewhere = Object.keys(available).filter((id) => id !== String(settings.to));
      return { class: 'NOT_ALLOWED', reason: `${target} ${some}${elsewhere.length ? `; locations that can take lines: ${elsewhere.join(', ')}` : ''}`, object, state };
    }
    if (can(fo, 'move')) return { class: 'READY', reason: `fulfillment order ${fo.id}: location ${locationOf(fo)} → ${target}`, object, state, target: { id: fo.id, step: 'move', location: settings.to } };
    if (fo.status === 'processing' && fo.request_status === 'cancel_requested') {
      return { class: 'NEEDS_CANCEL', reason: `fulfillment order ${fo.id}: its cancellation awaits location ${locationOf(fo)}; then → ${target}`, object, state, target: { id: fo.id, step: 'await_cancellation', location: settings.to } };
    }
    if (fo.status === 'processing' && fo.request_status === 'cancel_rejected') {
      return { class: 'NOT_ALLOWED', reason: `fulfillment order ${fo.id}: location ${locationOf(fo)} rejected its cancellation; ask it again by hand if it should still move`, object, state };
    }
    if (can(fo, 'request_cancellation')) {
      return { class: 'NEEDS_CANCEL', reason: `fulfillment order ${fo.id}: request cancellation from location ${locationOf(fo)}, then → ${target}`, object, state, target: { id: fo.id, step: 'request_cancellation', location: settings.to } };
    }
    return { class: 'NOT_ALLOWED', reason: `fulfillment order ${fo.id} is ${fo.status ?? '?'}${fo.request_status === 'requested' ? ' with its fulfillment request awaiting its location' : ''}${fo.status === 'on_hold' ? ': release the hold first' : ''}; it supports ${(fo.supported_actions ?? []).join(', ') || 'no action'}`, object, state };
  },
  async apply(target, _cells, _settings, io): Promise<Applied> {
    const waiting = `location's answer to the cancellation of fulfillment order ${target.id}`;
    if (target.step === 'await_cancellation') return { waiting };
    if (target.step === 'request_cancellation') {
      await io.change('cancellationRequestSend', { params: { id: target.id }, body: { message: `Moving to location ${target.location}` } }, { step: 'request_cancellation', object: String(target.id) });
      return { waiting };
    }
    const answer = (await io.change('fulfillmentOrdersMove', { params: { id: target.id }, body: { new_location_id: target.location } }, { step: 'move', object: String(target.id) })) as {
      moved_fulfillment_order?: FulfillmentOrder;
    };
    const moved = answer.moved_fulfillment_order;
    return { done: `fulfillment order ${moved?.id ?? target.id} moved to ${moved?.assigned_location?.name ?? `location ${target.location}`}` };
  },
};

/** The target's name, once per run; null when the store has no such location (a token that may not read locations takes it on trust). */
function targetLocation(io: JobIO, id: number): Promise<string | null> {
  return io.remember(`location ${id}`, async () => {
    try {
      const location = (await io.read('locationsRetrieve', { params: { id } })) as { name?: string };
      return location.name ? `${location.name} (${id})` : `location ${id}`;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      if (error instanceof ApiError && error.status === 403) return `location ${id}`;
      throw error;
    }
  });
}
