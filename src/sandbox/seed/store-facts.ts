// The store the seed builds, as fixed facts: a small outdoor apparel shop selling in two
// currencies from two locations, its taxes, shipping, staff, payment gateways and carriers.
import type { Tax } from '../amounts.js';
import { PARTNER_APP } from '../settings.js';

export const STORE = {
  name: 'Northwind Outfitters',
  domain: 'shop.northwind-outfitters.example',
  url: 'https://shop.northwind-outfitters.example',
  cdn: 'https://cdn.northwind-outfitters.example',
  statementDescriptor: 'NORTHWIND OUTFITTERS',
  /** The first is the store's own currency. */
  currencies: ['USD', 'EUR'] as const,
};

export type Currency = (typeof STORE.currencies)[number];

/** Prices include tax, lines and shipping alike. */
export const SALES_TAX: Tax = { id: 1, title: 'Sales tax', rate: 0.2 };
export const SHIPPING_TAX: Tax = { id: 2, title: 'Sales tax on shipping', rate: 0.2 };

export interface ShippingOption {
  id: number;
  code: string;
  name: string;
  /** Tax included, per currency. */
  price: Record<Currency, string>;
}

export const SHIPPING: Record<'standard' | 'express' | 'no_shipping', ShippingOption> = {
  standard: { id: 1, code: 'standard', name: 'Standard Shipping (3-5 business days)', price: { USD: '6.00', EUR: '5.50' } },
  express: { id: 2, code: 'express', name: 'Express Shipping (1-2 business days)', price: { USD: '14.40', EUR: '13.20' } },
  no_shipping: { id: 3, code: 'no_shipping', name: 'No shipping required', price: { USD: '0.00', EUR: '0.00' } },
};

/** Subscription boxes ship at a flat price. */
export const SUBSCRIPTION_SHIPPING: Record<Currency, string> = { USD: '4.80', EUR: '4.40' };

/** Staff as notes, attributions and refunds name them (Agent); the warehouse lead has no e-mail on file. */
export const STAFF = {
  priya: { email: 'priya.raman@northwind-outfitters.example', first_name: 'Priya', id: 9001, last_name: 'Raman' },
  tomas: { email: null, first_name: 'Tomas', id: 9002, last_name: 'Berg' },
};

/** The voucher new customers get. */
export const WELCOME = { name: 'Welcome 10% off', description: '10% off a first order', code: 'WELCOME10' };

/** A note the staff keep (on an order, a customer, a dispute): Priya writes them, through the partner app. */
export function staffNote(message: string) {
  return { app: { ...PARTNER_APP }, author: { ...STAFF.priya }, message };
}

export const GATEWAYS = {
  stripe: { id: 1, name: 'Stripe', type: 'stripe' },
  paypal: { id: 2, name: 'PayPal', type: 'paypal' },
  klarna: { id: 3, name: 'Klarna', type: 'klarna' },
  // A second card gateway, lowest in its group: where a store moves card subscriptions when it retires another.
  adyen: { id: 4, name: 'Adyen', type: 'adyen' },
};

export interface Carrier {
  name: string;
  code: string;
  link: (code: string) => string;
}

export const CARRIERS: readonly Carrier[] = [
  { name: 'UPS', code: '1Z9NW42', link: (code) => `https://www.ups.com/track?tracknum=${code}` },
  { name: 'USPS', code: '9400111', link: (code) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${code}` },
  { name: 'FedEx', code: '7489', link: (code) => `https://www.fedex.com/fedextrack/?trknbr=${code}` },
  { name: 'DHL', code: 'JD0146', link: (code) => `https://www.dhl.com/en/express/tracking.html?AWB=${code}` },
];
