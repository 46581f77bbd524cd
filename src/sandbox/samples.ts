// Events that no change in the sandbox's API causes (events.ts, EVENTS_WITHOUT_CHANGE): `webhooks
// trigger` asks the sandbox to send them with a seeded object of their kind, so a receiver can be
// built against every event the platform publishes. Nothing in the store changes.
import { HttpError } from './http-error.js';
import { customerObject } from './customers.js';
import { SEED } from './seed-data.js';
import { SANDBOX_APP } from './settings.js';
import { subscriptionView } from './subscription-views.js';
import type { SandboxState } from './state.js';

export interface Sample {
  data: unknown;
  /** What was sent, in a sentence. */
  said: string;
}

// The seeded objects the samples are taken from, as the state holds them now (seed-data.ts).
const [FIRST_ORDER, SECOND_ORDER] = SEED.orders.map((order) => String(order.number));
const SUBSCRIPTION = String(SEED.subscriptions[0]!.id);
const [FIRST_CUSTOMER, NEWEST_CUSTOMER] = Object.keys(SEED.customers);

/** The seeded object an event is sent with; a 400 when the sandbox has none of its kind yet. */
export function sampleFor(state: SandboxState, event: string, now: string): Sample {
  const [kind, action] = event.split('.') as [string, string];
  const order = state.orders[FIRST_ORDER!];
  const fulfillment = order?.fulfillments?.[0];
  const line = state.subscriptions[SUBSCRIPTION]?.lines[0];
  const product = line?.product;
  const gateway = order?.transactions?.[0]?.payment_details?.gateway;
  const cart = state.orders[SECOND_ORDER!];
  const samples: Record<string, () => Sample | undefined> = {
    app: () => ({ data: { ...SANDBOX_APP }, said: `the app ${SANDBOX_APP.client_id}` }),
    cart: () =>
      cart && {
        data: { id: 1, created_at: cart.created_at, updated_at: now, user: cart.user, lines: cart.lines, currency: cart.currency, total_incl_tax: cart.total_incl_tax },
        said: `cart 1 (the lines of order ${cart.number}, left at checkout)`,
      },
    customer: () => {
      const data = customerObject(state, (action === 'created' ? NEWEST_CUSTOMER : FIRST_CUSTOMER)!);
      return data && { data, said: `customer ${String(data.id)}` };
    },
    dispute: () => {
      const latest = Object.values(state.disputes).at(-1);
      return latest && { data: latest, said: `dispute ${String(latest.id)}` };
    },
    fulfillment: () => fulfillment && { data: fulfillment, said: `fulfillment ${String(fulfillment.id)} of order ${String(order?.number)}` },
    gateway: () => gateway ? { data: gateway, said: `gateway ${String(gateway.id)} (${String(gateway.name)})` } : undefined,
    product: () =>
      product
        ? { data: action === 'deleted' ? { id: product.id } : product, said: `product ${String(product.id)} (${String(product.title)})` }
        : undefined,
    store: () => ({ data: { name: 'Sandbox', currency: 'USD', language: 'en-US', timezone: 'UTC' }, said: 'the store' }),
    subscription: () => {
      const subscription = state.subscriptions[SUBSCRIPTION];
      return subscription && { data: subscriptionView(subscription), said: `subscription ${SUBSCRIPTION}` };
    },
    ticket: () =>
      cart && {
        data: { id: 1, subject: 'Where is my order?', status: 'open', user: cart.user, order_number: cart.number, created_at: cart.updated_at, updated_at: now },
        said: `ticket 1 (about order ${cart.number})`,
      },
  };
  const sample = samples[kind]?.();
  if (!sample) {
    const hint = kind === 'dispute' ? ' Create one first: store-admin webhooks trigger dispute.created.' : '';
    throw new HttpError(400, { detail: `The sandbox has no ${kind} to send with ${event}.${hint}` });
  }
  return sample;
}
