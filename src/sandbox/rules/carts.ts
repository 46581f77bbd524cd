// Carts: what a customer picked before checkout, each line priced as the store prices it (the
// variant's price in the cart's currency, tax included, unless the request names a price) and the
// totals added up, as the seed builds its carts (seed/service.ts). A replace prices the new lines.
import type { OperationId } from '../../api/operations.js';
import { runtimeSeeding } from '../builders.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { soldNow } from '../seed/catalogue.js';
import { buildCustomer } from '../seed/people.js';
import { cartLine, cartTotals, checkoutUrl } from '../seed/service.js';
import { STAFF, STORE, type Currency } from '../seed/store-facts.js';
import { SANDBOX_AGENT } from './notes.js';

interface LineIn {
  product_id?: number;
  quantity: number;
  price?: string;
  currency?: string;
  is_upsell?: boolean;
  metadata?: unknown;
  subscription?: { interval?: string | null };
}

const ATTRIBUTION_FIELDS = ['affiliate', 'funnel', 'gclid', 'metadata', 'subaffiliate1', 'subaffiliate2', 'subaffiliate3', 'subaffiliate4', 'subaffiliate5', 'utm_campaign', 'utm_content', 'utm_medium', 'utm_source', 'utm_term'];

/** Where the customer came from, as a cart keeps it: the agent named by id (else the API's own), what is not known null. */
export function attributionOf(given: Record<string, unknown> | undefined): Rec {
  const agent = Object.values(STAFF).find((staff) => staff.id === given?.agent) ?? SANDBOX_AGENT;
  return { ...Object.fromEntries(ATTRIBUTION_FIELDS.map((field) => [field, given?.[field] ?? null])), agent: { ...agent } };
}

/** The cart's currency: the one asked for (or its first line's), else the store's own. */
function currencyOf(ctx: RuleContext, lines: readonly LineIn[]): Currency {
  const asked = String(ctx.body.currency ?? lines[0]?.currency ?? STORE.currencies[0]).toUpperCase();
  if (!(STORE.currencies as readonly string[]).includes(asked)) throw new HttpError(400, { currency: [`"${asked}" is not a valid choice.`] });
  return asked as Currency;
}

/** The variant a line sells: `product_id` names the variant (a child product), or a product whose first variant it takes. */
function variantOf(ctx: RuleContext, productId: number | undefined): number | undefined {
  const { variants } = ctx.state.records;
  if (productId !== undefined && variants[String(productId)]) return productId;
  return Object.values(variants).find((variant) => variant.product_id === productId)?.id as number | undefined;
}

function pricedLines(ctx: RuleContext, lines: readonly LineIn[], currency: Currency): Rec[] {
  const seed = runtimeSeeding(ctx.state, ctx.nowMs);
  const refusals = lines.map((line) => {
    const variantId = variantOf(ctx, line.product_id);
    if (line.product_id === undefined) return { product_id: ['This field is required.'] };
    if (variantId === undefined) return { product_id: [`Invalid pk "${line.product_id}" - object does not exist.`] };
    if (!ctx.state.records.productPrices[`${variantId}/${currency}`]) return { product_id: [`Product ${line.product_id} has no price in ${currency}.`] };
    return {};
  });
  if (refusals.some((refusal) => Object.keys(refusal).length > 0)) throw new HttpError(400, { lines: refusals });
  return lines.map((line) => {
    const variantId = variantOf(ctx, line.product_id)!;
    return cartLine(seed, {
      variantId,
      quantity: line.quantity,
      currency,
      ...(line.price === undefined ? {} : { price: line.price }),
      interval: line.subscription?.interval ?? null,
      isUpsell: line.is_upsell ?? false,
      metadata: line.metadata ?? {},
      item: soldNow(ctx.state.records, variantId, currency),
    });
  });
}

/**
 * The customer a cart (or gift card) is for: the user named by id or e-mail, else a new lead with
 * what was given. One of the two must be: every answer shows its customer's e-mail.
 */
export function buyerOf(ctx: RuleContext, given: Record<string, unknown> | undefined): Rec {
  if (!given || ((given.id === undefined || given.id === null) && typeof given.email !== 'string')) throw new HttpError(400, { user: ['Name the customer by id or email.'] });
  const users = ctx.state.records.users;
  if (given.id !== undefined && given.id !== null) {
    const user = users[String(given.id)];
    if (!user) throw new HttpError(400, { user: { id: [`Invalid pk "${String(given.id)}" - object does not exist.`] } });
    return user;
  }
  const email = typeof given.email === 'string' ? given.email.toLowerCase() : undefined;
  const known = email === undefined ? undefined : Object.values(users).find((user) => String(user.email).toLowerCase() === email);
  if (known) return known;
  return buildCustomer(runtimeSeeding(ctx.state, ctx.nowMs), {
    first: String(given.first_name ?? ''),
    last: String(given.last_name ?? ''),
    email: given.email as string,
    joined: ctx.now,
    language: (given.language as string | undefined) ?? null,
    phone: (given.phone_number as string | undefined) ?? null,
    ip: (given.ip as string | undefined) ?? null,
    userAgent: (given.user_agent as string | undefined) ?? null,
    acceptsMarketing: given.accepts_marketing === true,
    type: 'lead',
    tags: (given.tags as string[] | undefined) ?? [],
    metadata: (given.metadata as Rec | undefined) ?? {},
    addresses: [],
  }).user;
}

function findCart(ctx: RuleContext): Rec {
  const cart = ctx.state.records.carts[String(ctx.params.id)];
  if (!cart) throw NOT_FOUND();
  return cart;
}

export const cartRules: Partial<Record<OperationId, Rule>> = {
  cartsCreate: (ctx) => {
    const lines = ctx.body.lines as LineIn[];
    const currency = currencyOf(ctx, lines);
    const priced = pricedLines(ctx, lines, currency);
    const id = ctx.next('carts');
    const cart: Rec = {
      id,
      user_id: buyerOf(ctx, ctx.body.user).id,
      abandoned: false,
      attribution: attributionOf(ctx.body.attribution),
      checkout_url: checkoutUrl(id),
      created_at: ctx.now,
      updated_at: ctx.now,
      currency,
      lines: priced,
      metadata: ctx.body.metadata ?? {},
      status: 'Open',
      ...cartTotals(priced, currency),
      voucher_discounts: [],
    };
    ctx.state.records.carts[String(id)] = cart;
    return ctx.answer(cart);
  },
  cartsUpdate: (ctx) => {
    const cart = findCart(ctx);
    const currency = cart.currency as Currency;
    const priced = pricedLines(ctx, ctx.body.lines as LineIn[], currency);
    // Its last change, from which the clock counts the day before an open cart is abandoned.
    Object.assign(cart, { lines: priced, ...cartTotals(priced, currency), updated_at: ctx.now });
    if (ctx.body.attribution !== undefined) cart.attribution = attributionOf(ctx.body.attribution);
    if (ctx.body.metadata !== undefined) cart.metadata = ctx.body.metadata;
    return ctx.answer(cart);
  },
};
