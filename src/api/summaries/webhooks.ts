// What each webhooks operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/webhooks/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  webhooksList: "List the store's webhooks, by name, state or event id",
  webhooksCreate: 'Register a webhook',
  webhooksRetrieve: 'Show a webhook',
  webhooksUpdate: "Replace a webhook's target, events and settings",
  webhooksPartialUpdate: 'Change some fields of a webhook',
  webhooksDestroy: 'Delete a webhook: the store stops sending its events',
};
