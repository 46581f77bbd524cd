// What each pages operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/pages/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  pagesList: "List the store's content pages, by title",
  pagesCreate: 'Create a content page',
  pagesRetrieve: 'Show a content page',
  pagesUpdate: 'Replace a content page',
  pagesPartialUpdate: 'Change some fields of a content page',
  pagesDestroy: 'Delete a content page',
};
