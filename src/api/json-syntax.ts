// Where a JSON text breaks, said without quoting it. JSON.parse's own messages show the text
// around the fault (`Unexpected token 'r', "root:*:202"... is not valid JSON`), and the text may be
// a file of secrets: `--data @token-file`, `--metadata @/etc/shadow`, a config file's tokens.
import { JsonSyntaxError, pythonJsonDumps } from './python-json.js';

/** JSON.parse, whose error says only where the text breaks: `not valid JSON (line 3, column 7)`. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const place = faultPlace(text, (error as Error).message);
    throw new SyntaxError(place ? `not valid JSON (${place})` : 'not valid JSON');
  }
}

/** `line L, column C` of the fault, or `it is empty`; nothing where the place is not known. */
function faultPlace(text: string, message: string): string | undefined {
  if (text.trim() === '') return 'it is empty';
  const at = faultAt(text, message);
  if (at === undefined) return undefined;
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return `${at >= text.length ? 'it ends early, at ' : ''}line ${line}, column ${column}`;
}

function faultAt(text: string, message: string): number | undefined {
  const said = /at position (\d+)/.exec(message);
  if (said) return Number(said[1]);
  if (/end of JSON input/.test(message)) return text.length;
  // "Unexpected token" names no place: the parser written for signatures finds it.
  try {
    pythonJsonDumps(text);
  } catch (error) {
    const found = error instanceof JsonSyntaxError ? /at character (\d+)$/.exec(error.message) : null;
    if (found) return Number(found[1]);
  }
  return undefined;
}
