// What each disputes operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/disputes/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  disputesList: 'List disputes, filtered by type, status, card, resolution and date',
  disputesCreate: 'Record a dispute (alert or chargeback)',
  disputesRetrieve: 'Show a dispute',
  disputesUpdate: "Replace a dispute's fields",
  disputesPartialUpdate: 'Change some fields of a dispute',
  disputesDestroy: 'Delete a dispute',
  disputesNotesList: 'List the notes on a dispute',
  disputesNotesCreate: 'Add a note to a dispute',
  disputesResolveCreate: 'Resolve a dispute, optionally refunding outside the platform',
};
