// What each metadata operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/metadata/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  metadataList: 'List metadata field definitions, by object, type and name',
  metadataCreate: 'Define a metadata field on a kind of record',
  metadataRetrieve: 'Show a metadata field definition',
  metadataUpdate: 'Replace a metadata field definition',
  metadataPartialUpdate: 'Change some fields of a metadata field definition',
  metadataDestroy: 'Delete a metadata field definition',
};
