// What each gateways operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/gateways/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  gatewaysList: "List the store's payment gateways",
  gatewaysRetrieve: 'Show a payment gateway',
};
