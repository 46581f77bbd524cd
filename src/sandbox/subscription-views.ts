// A subscription as the API and its events show it: cancel and renew answer one shape of its lines,
// a partial update another (spec 2.7), and `subscription.*` events carry both, cut down to the
// webhook's API version (payloads.ts).
import type { SubscriptionLineRecord, SubscriptionRecord } from './state.js';

/** Cancel and renew answer lines in the first shape of spec 2.7, without the stored variant fields. */
export function subscriptionAnswer(subscription: SubscriptionRecord) {
  return { ...subscription, lines: subscription.lines.map(({ variant_id: _id, variant_title: _title, ...line }) => line) };
}

/**
 * A subscription with its lines in both shapes at once: what `subscription.*` events carry, cut
 * down to the shape of the webhook's API version (payloads.ts).
 */
export function subscriptionView(subscription: SubscriptionRecord) {
  const lines: SubscriptionLineRecord[] = subscription.lines;
  return { ...subscription, lines: lines.map((line) => ({ ...line, ...updateShapeLine(line) })) };
}

/** The partial-update response shows lines flattened (spec 2.7, second shape). */
export function updatedSubscriptionAnswer(subscription: SubscriptionRecord) {
  const { is_tax_known: _taxKnown, ...fields } = subscription;
  return { ...fields, lines: subscription.lines.map(updateShapeLine) };
}

function updateShapeLine(line: SubscriptionRecord['lines'][number]) {
  return {
    id: line.id,
    metadata: line.metadata,
    price: line.price,
    product_id: line.product?.id,
    product_image: line.product?.images?.[0]?.src,
    product_title: line.product?.title,
    product_url: line.product?.url,
    quantity: line.quantity,
    sku: line.stockrecord?.partner_sku,
    variant_id: line.variant_id,
    variant_title: line.variant_title,
  };
}
