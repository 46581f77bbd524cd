// `store-admin customers …`
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addOperationCommand } from './define.js';
import { noteFields } from './message.js';

export function register(customers: Command, ctx: Context): void {
  addOperationCommand(customers, ctx, {
    name: 'add-note',
    operation: 'usersNotesCreate',
    args: [['id', 'id', 'customer id']],
    fields: noteFields,
    view: 'note',
    progress: 'Adding the note…',
    examples: ['store-admin customers add-note 1 --message "Prefers email contact"', 'store-admin customers add-note 2 --message-file note.txt'],
  });
}
