// What each locations operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/locations/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  locationsList: "List the store's locations: warehouses and fulfillment services",
  locationsCreate: 'Create a location',
  locationsRetrieve: 'Show a location',
  locationsUpdate: "Replace a location's fields",
  locationsDestroy: 'Delete a location',
};
