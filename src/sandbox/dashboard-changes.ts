// What a store's owner changes in its dashboard and the Admin API has no operation for: a payment
// gateway added or changed, the store's details edited, an app uninstalled. A sandbox takes each
// on a route of its own under /sandbox/ (applied by dashboard.ts), so gateway.created,
// gateway.updated, store.updated and app.uninstalled come from a real change; `webhooks trigger`
// makes them, its --set editing the body. A body's fields are typed and limited as the reference
// types and limits them in the object's answer.
import * as z from 'zod/mini';

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

/** A gateway as the dashboard sets it up (PaymentGateway's writable fields, and the store currencies it takes by code). */
const gateway = {
  name: text(100),
  gateway_type: text(100),
  active: z.boolean(),
  payment_flow: z.enum(['charge', 'auth-capture']),
  auto_capture_on_fulfillment: z.boolean(),
  delayed_capture_days: z.nullable(z.int().check(z.minimum(1), z.maximum(7))),
  enable_3ds2: z.boolean(),
  optimized_3ds: z.boolean(),
  merchant_profile: z.nullable(z.int()),
  currencies: z.array(z.string()),
};
const optional = <T extends Record<string, z.ZodMiniType>>(shape: T) => Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, z.optional(field)])) as { [K in keyof T]: z.ZodMiniOptional<T[K]> };
const { name, gateway_type, ...gatewaySettings } = gateway;

const contactAddress = z.strictObject(optional({ company_name: z.string(), line1: z.string(), line2: z.string(), city: z.string(), state: z.string(), postcode: z.string(), country: z.string(), phone_number: z.string() }));

export interface DashboardChange {
  /** What the owner does, in a few words. */
  does: string;
  method: 'POST' | 'PATCH';
  /** The route under /sandbox/; `{key}` stands for the record's key. */
  path: string;
  event: string;
  /** The body taken; none for a change that takes nothing. */
  body?: z.ZodMiniType;
}

export const DASHBOARD_CHANGES = {
  addGateway: { does: 'add a payment gateway', method: 'POST', path: 'gateways/', event: 'gateway.created', body: z.strictObject({ name, gateway_type, ...optional(gatewaySettings) }) },
  changeGateway: { does: 'change a payment gateway', method: 'PATCH', path: 'gateways/{key}/', event: 'gateway.updated', body: z.strictObject(optional(gateway)) },
  changeStore: {
    does: "change the store's details",
    method: 'PATCH',
    path: 'store/',
    event: 'store.updated',
    body: z.strictObject(optional({ name: z.string().check(z.minLength(1)), tagline: z.string(), tax_id: z.string(), timezone: z.string(), contact_address: contactAddress })),
  },
  uninstallApp: { does: 'uninstall an app', method: 'POST', path: 'apps/{key}/uninstall/', event: 'app.uninstalled' },
} as const satisfies Record<string, DashboardChange>;

export type DashboardChangeName = keyof typeof DASHBOARD_CHANGES;

/** The route of a change to the record keyed `key`, under /sandbox/. */
export function dashboardPath(name: DashboardChangeName, key: string | number = ''): string {
  return DASHBOARD_CHANGES[name].path.replace('{key}', encodeURIComponent(String(key)));
}
