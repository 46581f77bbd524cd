// `store-admin customers …`: what the table's commands for customers need beyond their facts.
import { noteFields } from './message.js';
import { refine } from './table-commands.js';

export const refinements = [
  refine({
    operation: 'usersNotesCreate',
    args: [['id', 'id', 'customer id']],
    fields: noteFields,
    view: 'note',
    progress: 'Adding the note…',
    examples: ['store-admin customers notes create 1 --message "Prefers email contact"', 'store-admin customers notes create 2 --message-file note.txt'],
  }),
];
