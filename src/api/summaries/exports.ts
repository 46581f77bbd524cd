// What each exports operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/exports/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  exportsList: 'List data exports, filtered by type and date',
  exportsCreate: 'Create a data export for a date range',
  exportsRetrieve: 'Show an export and its status (pending or available)',
  exportsDownloadRetrieve: "Get a temporary signed link to an available export's file",
  exportsTypesRetrieve: 'List the types of export',
};
