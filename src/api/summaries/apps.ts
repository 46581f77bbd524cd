// What each apps operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/apps/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  appsRetrieve: 'Show an app installed on the store',
  appsSettingsRetrieve: "Show an app's settings",
  appsSettingsUpdate: "Replace an app's settings with the keys given",
  appsSettingsPartialUpdate: "Merge keys into an app's settings",
  appsSettingsDestroy: 'Delete every setting of an app',
};
