// The note text shared by the note commands: `--message T`, `--message-file F|-`, or a prompt.
import type { Field } from '../fields/declare.js';

export const noteFields: readonly Field<'message'>[] = [
  {
    key: 'message',
    short: 'm',
    help: 'the note text',
    file: 'read the note text from a file, or - for standard input',
    prompt: { message: 'Note:' },
  },
];
