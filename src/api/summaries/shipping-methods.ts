// What each shipping-methods operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/shipping-methods/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  shippingMethodsList: "List the store's shipping methods",
  shippingMethodsRetrieve: 'Show a shipping method',
};
