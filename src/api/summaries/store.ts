// What each store operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/store/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  storeDetail: "Show the store's name, currency and settings",
};
