// What each assigned-fulfillment-orders operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/assigned-fulfillment-orders/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  assignedFulfillmentOrdersList: 'List the fulfillment orders assigned to your locations, by assignment status',
};
