// What each tickets operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/tickets/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  ticketsList: 'List support tickets, filtered by status, assignee, order and more',
  ticketsCreate: 'Open a support ticket',
  ticketsRetrieve: 'Show a support ticket',
  ticketsUpdate: "Replace a support ticket's fields",
  ticketsPartialUpdate: 'Change some fields of a support ticket',
  ticketsCommentsRetrieve: 'List the comments on a support ticket',
  ticketsCommentsCreate: 'Comment on a support ticket',
  ticketsAttachmentsCreate: "Upload a file to attach to a ticket's comments",
};
