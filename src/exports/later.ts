// What a wait or download that stopped short says: the command that finishes the job later, with
// the user's own file, so that no second export need be created.
import { InterruptedError } from '../api/errors.js';

/** `store-admin exports download 42 --wait --output-file orders.csv`, quoted for the shell where need be. */
export function finishLater(id: number, file: string | undefined, force: boolean): string {
  return `store-admin exports download ${id} --wait --output-file ${file === undefined ? 'FILE' : shellWord(file)}${force ? ' --force' : ''}`;
}

/** A word the shell reads back as it is. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Ctrl-C or SIGTERM while waiting or downloading: the export goes on, and `later` finishes the job. */
export function stopped(what: string, later: string): InterruptedError {
  return new InterruptedError(`${what}; the export itself goes on`, { hint: `Fetch it later: ${later}` });
}
