// `orders refund`: the platform's refund flow (its order-management guide) for one order or many.
// Each order is read, what is left to refund worked out (every unit left and the shipping, or the
// lines named), and the refund calculated by the store, which changes nothing: the plan shows the
// amounts per line and the total. On confirmation the refund is made with the calculation's lines,
// restock types and money per payment. A partial refund of a payment that was only authorized is
// refused before anything is sent, as the platform refuses it (capture first, or refund it all).
import { UsageError } from '../api/errors.js';
import type { Applied, Cells, Earlier, Job, JobIO, Verdict } from './job.js';

export interface RefundSettings {
  /** The lines to refund, and how many units of each (all left when not said); every line when not given. */
  lines?: { lineId: number; quantity?: number }[];
  /** The shipping: in full, or not at all; by default in full with every line, not with lines named. */
  shipping?: 'full' | 'none';
  /** What happens to shipped units refunded (unshipped ones are always canceled). */
  restock: 'return' | 'no_restock';
  note?: string;
  notify: boolean;
}

/** What the flags of `orders refund` give (src/commands/orders.ts declares them). */
export interface RefundFlags {
  line?: string[];
  shipping?: string;
  restock?: string;
  note?: string;
  notify?: boolean;
}

export function refundSettings(flags: RefundFlags): RefundSettings {
  const lines = flags.line?.length ? lineSpec(flags.line.join(' '), '--line') : undefined;
  return {
    ...(lines ? { lines } : {}),
    ...(flags.shipping !== undefined ? { shipping: shippingOf(flags.shipping, '--shipping') } : {}),
    restock: flags.restock === 'return' ? 'return' : 'no_restock',
    ...(flags.note !== undefined ? { note: flags.note } : {}),
    notify: flags.notify !== false,
  };
}

/** `105:2 106` (or `105:2,106`): line 105's two units and every unit left of line 106. */
function lineSpec(text: string, where: string): { lineId: number; quantity?: number }[] {
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((item) => {
      const match = /^(\d{1,12})(?::(\d{1,6}))?$/.exec(item);
      if (!match || Number(match[2] ?? 1) < 1) throw new UsageError(`${where}: "${item}" is not a line: give its id, or ID:QUANTITY (105:2)`);
      return { lineId: Number(match[1]), ...(match[2] !== undefined ? { quantity: Number(match[2]) } : {}) };
    });
}

function shippingOf(text: string, where: string): 'full' | 'none' {
  const word = text.trim().toLowerCase();
  if (['full', 'yes', 'true', '1'].includes(word)) return 'full';
  if (['none', 'no', 'false', '0'].includes(word)) return 'none';
  throw new UsageError(`${where}: "${text}" is neither full nor none`);
}

interface OrderLine {
  id: number;
  current_quantity?: number;
  fulfillable_quantity?: number;
  requires_shipping?: boolean;
  sku?: string;
  product_title?: string;
}

interface Order {
  number: string;
  currency?: string;
  payment_status?: string;
  shipping_incl_tax?: string;
  lines?: OrderLine[];
  refunds?: unknown[];
}

interface Calculation {
  refund_lines?: { line_id: number; quantity: number; restock_type?: string; amount_incl_tax?: string; sku?: string; product_title?: string }[];
  refund_shipping?: { amount_incl_tax?: string };
  transactions?: { id?: number; type?: string; amount?: string; gateway_name?: string }[];
  amount_incl_tax?: string;
  currency?: string;
}

interface RefundTarget {
  number: string;
  body: Record<string, unknown>;
}

const units = (value: unknown) => Math.max(0, Math.trunc(Number(value ?? 0)) || 0);
const cents = (value: unknown) => Math.round(Number(value ?? 0) * 100) || 0;
const money = (amount: number) => (amount / 100).toFixed(2);

/** The order's state the refund rests on: its refunds so far, its payment, the units and shipping left. */
function stateOf(order: Order): string {
  const left = (order.lines ?? []).filter((line) => units(line.current_quantity) > 0).map((line) => `${line.id}×${units(line.current_quantity)}`);
  return `${(order.refunds ?? []).length} refunds, payment ${order.payment_status ?? '?'}, units ${left.join(' ') || 'none'}, shipping ${money(cents(order.shipping_incl_tax))}`;
}

/** How many refunds the order had when the plan's state was read. */
const refundsIn = (state: string | undefined) => (state === undefined ? undefined : Number(/^(\d+) refunds/.exec(state)?.[1] ?? NaN));

export const refundJob: Job<RefundSettings, RefundTarget> = {
  command: 'orders refund',
  columns: { key: 'order_number', required: [], optional: ['lines', 'shipping', 'note'] },
  aliases: { number: 'order_number', order: 'order_number' },
  noun: 'order',
  intent: (settings) =>
    `Refund ${settings.lines ? 'the lines named' : 'every unit left'}${shippingWords(settings)} of each order${settings.notify ? ', e-mailing each customer' : ''}; money goes back and cannot be taken again`,

  async check(cells: Cells, settings: RefundSettings, io: JobIO, earlier?: Earlier): Promise<Verdict<RefundTarget>> {
    const number = cells.order_number!;
    const order = (await io.read('ordersRetrieve', { params: { number } })) as Order;
    const state = stateOf(order);
    const before = refundsIn(earlier?.state);
    if (before !== undefined && (order.refunds ?? []).length > before) return { class: 'ALREADY_DONE', reason: `refunded: the order has ${(order.refunds ?? []).length} refunds now`, state };
    let named: RefundSettings['lines'];
    let shipping: RefundSettings['shipping'];
    try {
      named = cells.lines ? lineSpec(cells.lines, 'lines') : settings.lines;
      shipping = cells.shipping ? shippingOf(cells.shipping, 'shipping') : settings.shipping;
    } catch (error) {
      return { class: 'INVALID', reason: (error as Error).message, state };
    }
    const lines = order.lines ?? [];
    const wanted: { line: OrderLine; quantity: number }[] = [];
    for (const { lineId, quantity } of named ?? lines.filter((line) => units(line.current_quantity) > 0).map((line) => ({ lineId: line.id, quantity: undefined }))) {
      const line = lines.find((candidate) => candidate.id === lineId);
      if (!line) return { class: 'INVALID', reason: `line ${lineId} is not a line of order ${number} (its lines: ${lines.map((l) => l.id).join(', ')})`, state };
      const left = units(line.current_quantity);
      if (quantity !== undefined && quantity > left && left > 0) return { class: 'NOT_ALLOWED', reason: `line ${lineId} has ${left} unit${left === 1 ? '' : 's'} left to refund; ${quantity} asked`, state };
      if (left > 0) wanted.push({ line, quantity: quantity ?? left });
    }
    const shippingLeft = cents(order.shipping_incl_tax);
    const withShipping = (shipping ?? (named ? 'none' : 'full')) === 'full' && shippingLeft > 0;
    if (wanted.length === 0 && !withShipping) return { class: 'ALREADY_DONE', reason: named ? 'the lines named have nothing left to refund' : `nothing left to refund (payment ${order.payment_status ?? '?'})`, state };

    const refundLines = wanted.flatMap(({ line, quantity }) => {
      // Unshipped units are canceled; shipped ones returned or kept, as asked (a digital product's only kept).
      const unshipped = Math.min(quantity, units(line.fulfillable_quantity));
      const restock = line.requires_shipping === false ? 'no_restock' : settings.restock;
      return [
        ...(unshipped > 0 ? [{ line_id: line.id, quantity: unshipped, restock_type: 'cancel' }] : []),
        ...(quantity > unshipped ? [{ line_id: line.id, quantity: quantity - unshipped, restock_type: restock }] : []),
      ];
    });
    const request = { refund_lines: refundLines, refund_shipping: { full_refund: withShipping } };
    const calculation = (await io.read('ordersRefundCalculateCreate', { params: { number }, body: request })) as Calculation;
    const currency = calculation.currency ?? order.currency ?? '';
    const total = cents(calculation.amount_incl_tax);
    const payments = (calculation.transactions ?? []).filter((payment) => cents(payment.amount) > 0);
    const whole = withShipping === shippingLeft > 0 && lines.every((line) => wanted.find((w) => w.line === line)?.quantity === units(line.current_quantity) || units(line.current_quantity) === 0);
    if (payments.some((payment) => payment.type === 'authorize') && !whole) {
      return {
        class: 'NOT_ALLOWED',
        reason: `the payment is authorized but not captured, and an uncaptured payment cannot be refunded in part: capture it first (store-admin orders capture ${number}), or refund the whole order`,
        state,
      };
    }
    if (total > 0 && payments.length === 0) return { class: 'NOT_ALLOWED', reason: 'no payment of the order has money left to give back', state };
    const what = [wanted.length > 0 ? `${wanted.length} line${wanted.length === 1 ? '' : 's'}` : '', withShipping ? 'the shipping' : ''].filter(Boolean).join(' and ');
    const through = payments.map((payment) => `${payment.type === 'authorize' ? 'voiding' : 'through'} transaction ${payment.id} (${payment.amount})`).join(', ');
    return {
      class: 'READY',
      reason: `refund ${what}: ${money(total)} ${currency}${through ? ` ${through}` : ''}`,
      state,
      amount: { value: money(total), currency },
      details: [
        ...(calculation.refund_lines ?? []).map((line) => `line ${line.line_id}  ${line.sku ?? ''}  ${line.quantity} × ${line.restock_type ?? ''}  ${line.amount_incl_tax ?? ''}`),
        ...(withShipping ? [`shipping  ${calculation.refund_shipping?.amount_incl_tax ?? ''}`] : []),
        `total  ${money(total)} ${currency}`,
      ],
      target: {
        number,
        body: {
          ...request,
          transactions: payments.map((payment) => ({ id: payment.id, amount: payment.amount })),
          ...(cells.note || settings.note ? { note: cells.note || settings.note } : {}),
          send_refund_notification: settings.notify,
        },
      },
    };
  },

  async apply(target: RefundTarget, _cells: Cells, _settings: RefundSettings, io: JobIO): Promise<Applied> {
    const refund = (await io.change('ordersRefundCreate', { params: { number: target.number }, body: target.body as never }, { step: 'refund', object: target.number })) as {
      id?: number;
      total_refund_amount?: string;
    };
    return { done: `refund ${refund.id ?? '?'}: ${refund.total_refund_amount ?? '?'}` };
  },
};

function shippingWords(settings: RefundSettings): string {
  const shipping = settings.shipping ?? (settings.lines ? 'none' : 'full');
  return shipping === 'full' ? ' and the shipping' : '';
}
