// What each themes operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/themes/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  themesList: "List the store's themes",
  themesCreate: 'Create a theme',
  themesRetrieve: 'Show a theme',
  themesDestroy: 'Delete a theme',
  themesTemplatesRetrieve: "Show a theme's templates",
  themesTemplatesCreate: 'Add a template to a theme',
  themesTemplatesDestroy: "Delete a theme's templates",
};
