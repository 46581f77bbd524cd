// Text from a store (or a file) made safe to show on a terminal: control characters, escape
// sequences (colours, cursor moves, OSC window titles, hyperlinks), carriage returns, backspaces,
// C1 controls and bidirectional overrides are shown as escapes instead of acting on the terminal.
// Only text for people goes through here; JSON output stays exactly what was received.

// C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings/overrides/isolates.
const UNSAFE = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const BREAKS = '\\t\\n';
// A test without the g flag (which would carry lastIndex from one call to the next), then a replace.
const found = new RegExp(`[${UNSAFE}]`);
const all = new RegExp(`[${UNSAFE}]`, 'g');
const foundOneLine = new RegExp(`[${UNSAFE}${BREAKS}]`);
const allOneLine = new RegExp(`[${UNSAFE}${BREAKS}]`, 'g');

const escape = (c: string) => {
  if (c === '\n' || c === '\r' || c === '\t') return ' ';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
};

/** Several lines (a raw body, a --raw string): newlines and tabs stay, other controls are escaped. */
export function printable(text: string): string {
  return found.test(text) ? text.replace(all, escape) : text;
}

/** One line (an error, a note, a table cell): line breaks and tabs become spaces as well. */
export function printableLine(text: string): string {
  return foundOneLine.test(text) ? text.replace(allOneLine, escape) : text;
}

/** One line cut to `max` characters, for text a store sends back in an error. */
export function excerpt(text: string, max = 300): string {
  const line = printableLine(text).trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
