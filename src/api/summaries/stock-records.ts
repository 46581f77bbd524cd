// What each stock-records operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/stock-records/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  stockrecordsList: 'List stock records, filtered by SKU, location and availability',
  stockrecordsCreate: 'Record the stock of a product at a location',
  stockrecordsRetrieve: 'Show a stock record',
  stockrecordsPartialUpdate: "Change a stock record's count, threshold or location",
  stockrecordsDestroy: 'Delete a stock record',
};
