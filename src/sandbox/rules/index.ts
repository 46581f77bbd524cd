// The sandbox's rules: what the platform's guides say an operation does, where that is more than
// the generic engine's list, read, create, change or delete (engine.ts). One module per subject,
// keyed by operation id; every other operation is generic.
import type { OperationId } from '../../api/operations.js';
import type { Rule } from '../engine.js';
import { appRules } from './apps.js';
import { cartRules } from './carts.js';
import { catalogueRules } from './catalogue.js';
import { disputeRules } from './disputes.js';
import { exportRules } from './exports.js';
import { fulfillmentOrderRules } from './fulfillment-orders.js';
import { orderLineRules } from './order-lines.js';
import { orderRules } from './orders.js';
import { paymentRules } from './payments.js';
import { refundRules } from './refunds.js';
import { serviceRules } from './service.js';
import { subscriptionRules } from './subscriptions.js';
import { webhookRules } from './webhooks.js';

export const rules: Partial<Record<OperationId, Rule>> = {
  ...appRules,
  ...cartRules,
  ...catalogueRules,
  ...disputeRules,
  ...exportRules,
  ...fulfillmentOrderRules,
  ...orderLineRules,
  ...orderRules,
  ...paymentRules,
  ...refundRules,
  ...serviceRules,
  ...subscriptionRules,
  ...webhookRules,
};
