// Allowed values from the spec, as plain arrays: prompts, help and completion read these
// without loading zod.

export const CANCEL_REASONS = [
  'not_satisfied_with_product',
  'product_too_expensive',
  'cancel_recurring',
  'unwanted_subscription',
  'recurring_payment_declined',
  'disputed_cancel_recurring',
  'schedule_ended',
  'other',
] as const;

export const INTERVALS = ['day', 'week', 'month', 'year'] as const;

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'retrying'] as const;

export const EXPORT_TYPES = [
  'order_list',
  'order_line_items',
  'customer_list',
  'transaction_list',
  'dispute_list',
  'subscription_list',
  'subscription_line_items',
  'open_cart_list',
  'open_cart_line_items',
  'return_list',
  'return_line_items',
  'fulfillment_list',
  'fulfillment_line_items',
] as const;

export const DISPUTE_TYPES = ['alert', 'chargeback'] as const;

/** The empty string and null are also accepted (see the dispute schema). */
export const DISPUTE_RESOLUTIONS = [
  'could_not_find_order',
  'declined_or_canceled_nothing_to_do',
  'issued_full_refund',
  'issued_refund_for_remaining_amount',
  '3ds_authorized_successfully',
  'previously_refunded_nothing_to_do',
  'unable_to_refund_merchant_account_closed',
  'won',
  'lost',
  'accepted',
  'other',
] as const;

/**
 * The resolutions that fit each type of dispute: the dispute guide's alert and chargeback lists,
 * and for a chargeback also the two the reference adds (accepted without a fight, or other).
 */
export const DISPUTE_RESOLUTIONS_OF: Record<(typeof DISPUTE_TYPES)[number], readonly (typeof DISPUTE_RESOLUTIONS)[number][]> = {
  alert: [
    'could_not_find_order',
    'declined_or_canceled_nothing_to_do',
    'issued_full_refund',
    'issued_refund_for_remaining_amount',
    '3ds_authorized_successfully',
    'previously_refunded_nothing_to_do',
    'unable_to_refund_merchant_account_closed',
    'other',
  ],
  chargeback: ['won', 'lost', 'accepted', 'other'],
};

/** Event names the platform publishes; webhooks accept others too. */
export const WEBHOOK_EVENTS = [
  'app.uninstalled',
  'cart.abandoned',
  'customer.created',
  'customer.updated',
  'dispute.created',
  'dispute.updated',
  'export.created',
  'fulfillment.created',
  'fulfillment.updated',
  'gateway.created',
  'gateway.updated',
  'order.created',
  'order.updated',
  'product.created',
  'product.updated',
  'product.deleted',
  'store.updated',
  'subscription.created',
  'subscription.updated',
  'ticket.created',
  'ticket.updated',
  'transaction.created',
  'transaction.updated',
] as const;
