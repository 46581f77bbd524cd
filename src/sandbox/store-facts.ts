// The store the sandbox plays, as its records show it: the seed builds its records with these,
// and a renewal's order is made with them (renewal-order.ts).
export const STORE = {
  name: 'Northwind Outfitters',
  domain: 'northwind-outfitters.example',
  url: 'https://shop.northwind-outfitters.example',
  cdn: 'https://cdn.northwind-outfitters.example',
  currency: 'USD',
  /** Prices include tax at this rate. */
  taxRate: 0.2,
  statementDescriptor: 'NORTHWIND OUTFITTERS',
  shippingMethods: {
    standard: 'Standard Shipping (3-5 business days)',
    express: 'Express Shipping (1-2 business days)',
    no_shipping: 'No shipping required',
  } as Record<string, string>,
};
