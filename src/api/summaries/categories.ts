// What each categories operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/categories/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  categoriesList: 'List product categories',
  categoriesCreate: 'Create a product category',
  categoriesRetrieve: 'Show a product category',
  categoriesUpdate: "Replace a product category's fields",
};
