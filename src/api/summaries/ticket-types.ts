// What each ticket-types operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/ticket-types/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  tickettypesList: 'List the types of support ticket',
  tickettypesRetrieve: 'Show a type of support ticket',
};
