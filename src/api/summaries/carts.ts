// What each carts operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/carts/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  cartsList: 'List carts, filtered by product, dates, abandonment and attribution',
  cartsCreate: 'Create a cart for a customer, with lines and vouchers',
  cartsRetrieve: 'Show a cart',
  cartsUpdate: "Replace a cart's lines, vouchers and metadata",
  cartsDestroy: 'Delete a cart',
};
