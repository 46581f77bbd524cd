// Text from a store (or a file) made safe to show on a terminal: control characters, escape
// sequences (colours, cursor moves, OSC window titles, hyperlinks), carriage returns, backspaces,
// C1 controls and bidirectional overrides are shown as escapes instead of acting on the terminal.
// And safe in a CI log: a line a runner would read as a workflow command (`::add-mask::…`) is not
// one. Only text for people goes through here; JSON output stays exactly what was received.

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

/**
 * A line that, once a CI runner trims its white space, is read as a workflow command: GitHub
 * Actions' `::name …::data` (`::add-mask::`, `::stop-commands::`; a second `::` ends the name) and
 * the older `##[name …]`. A line that only starts with `::` (`::1` of a list of hosts) is none.
 */
const RUNNER_COMMAND = /^(\s*)(::(?=.*::)|##\[(?=.*\]))/gm;
const startsRunnerCommand = /^\s*(::(?=.*::)|##\[(?=.*\]))/m;

/**
 * The one rule for text people read on stdout or stderr, applied by the output layer to every line
 * it prints: controls escaped as `printable` does, and a line that would start a runner's workflow
 * command has its first character escaped (`\u003a:add-mask::…`), so whatever a store's value
 * holds, it neither acts on the terminal nor on the CI.
 */
export function safeText(text: string): string {
  return withoutRunnerCommands(printable(text));
}

/** Text whose lines may not start a runner's workflow command (a CSV cell over several lines), its controls left as they are. */
export function withoutRunnerCommands(text: string): string {
  return startsRunnerCommand.test(text) ? text.replace(RUNNER_COMMAND, (_line, space: string, start: string) => `${space}${escape(start[0]!)}${start.slice(1)}`) : text;
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

/** What JSON.stringify leaves raw and a terminal acts on: DEL, C1 controls, bidi marks, line and paragraph separators. */
const RAW_IN_JSON = '\\u007f-\\u009f\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const foundInJson = new RegExp(`[${RAW_IN_JSON}]`);
const allInJson = new RegExp(`[${RAW_IN_JSON}]`, 'g');

/**
 * JSON text for stdout or stderr: as JSON.stringify writes it, but with the characters it leaves
 * raw written as `\uXXXX`. They only occur inside strings, so the text reads back as the same value.
 */
export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value ?? null, null, indent);
  return foundInJson.test(text) ? text.replace(allInJson, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

/** A value as JSON in a message, cut to `max` characters or so, a string keeping its closing quote: `"abc…"`. */
export function quotedExcerpt(value: unknown, max = 40): string {
  if (typeof value === 'string') {
    let kept = value.length;
    let text = JSON.stringify(value);
    while (text.length > max && kept > 0) text = JSON.stringify(`${value.slice(0, --kept)}…`);
    return text;
  }
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
