// A subscription started by an order line that asks for one (the platform's external-checkout
// guide): made with the order, from the line's variant and quantity.
import type { CreateOrderLine } from '../../api/generated/types.js';
import { runtimeSeeding } from '../builders.js';
import { isoSeconds } from '../clock.js';
import type { RuleContext } from '../engine.js';
import type { Rec } from '../kinds.js';
import { addInterval, buildSubscription } from '../seed/subscriptions.js';
import type { Currency } from '../seed/store-facts.js';
import type { OrderPayer } from './charges.js';

/**
 * The subscription a line asks for, made with the order: the customer's card kept for its
 * renewals, renewed at its own price or the line's, shipped where the order ships.
 */
export function subscribe(ctx: RuleContext, order: Rec, line: CreateOrderLine, orderLine: Rec, payer: Pick<OrderPayer, 'details' | 'method'>): Rec {
  const plan = line.subscription as Required<Pick<NonNullable<CreateOrderLine['subscription']>, 'interval' | 'interval_count'>> & { price?: string };
  const user = ctx.state.records.users[String(order.user_id)]!;
  const subscription = buildSubscription(runtimeSeeding(ctx.state, ctx.nowMs), {
    customer: { user, billing: order.billing_address as Rec, shipping: order.shipping_address as Rec },
    currency: order.currency as Currency,
    status: 'active',
    interval: plan.interval,
    intervalCount: plan.interval_count,
    createdAt: ctx.now,
    nextRenewal: isoSeconds(addInterval(ctx.nowMs, plan.interval, plan.interval_count)),
    lines: [{ variantId: Number(line.product_id), quantity: Number(line.quantity), price: plan.price ?? String(orderLine.unit_cost) }],
    attribution: order.attribution as Rec,
    payer: { details: payer.details, method: String(payer.method) },
  });
  ctx.emit('subscription.created', subscription);
  return subscription;
}
