// CSV input for --each, as RFC 4180 and spreadsheets write it: a header row naming the columns,
// fields quoted when they hold commas, quotes or line breaks (a quote doubled inside), CRLF or LF
// line ends, and a last line with or without its newline. A field is taken as written, spaces
// included (RFC 4180: they are part of the field); a byte order mark before the header (Excel's
// "CSV UTF-8") is dropped. Blank lines and lines starting with # are skipped, as in plain --each
// files. Hand-written rather than a library: it is some eighty lines, and it keeps what a --failed
// file needs, each row's first line and its text as written.

import { UsageError } from '../../api/errors.js';

export interface CsvRow {
  /** The line of the file the row starts on (1-based), for error messages. */
  line: number;
  /** The row as it was written, to copy into a --failed file. */
  text: string;
  cells: string[];
}

export interface Csv {
  header: string[];
  headerText: string;
  rows: CsvRow[];
}

export class CsvError extends Error {}

export function parseCsv(input: string): Csv {
  const text = input.startsWith('\ufeff') ? input.slice(1) : input;
  const records: CsvRow[] = [];
  let i = 0;
  let line = 1;
  while (i < text.length) {
    const start = i;
    const startLine = line;
    // Blank lines and comments are skipped whole.
    const lineEnd = text.indexOf('\n', i);
    const firstLine = text.slice(i, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, '');
    if (firstLine.trim() === '' || firstLine.trimStart().startsWith('#')) {
      i = lineEnd < 0 ? text.length : lineEnd + 1;
      line++;
      continue;
    }
    const cells: string[] = [];
    let cell = '';
    // Inside quotes; and whether the field was quoted (only a separator or the line's end may follow its closing quote).
    let quoted = false;
    let closed = false;
    for (;;) {
      if (i >= text.length) {
        if (quoted) throw new CsvError(`line ${startLine}: a quoted field is not closed`);
        cells.push(cell);
        break;
      }
      const c = text[i]!;
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (c === '"') {
          quoted = false;
          closed = true;
          i++;
        } else {
          if (c === '\n') line++;
          cell += c;
          i++;
        }
      } else if (c === ',') {
        cells.push(cell);
        cell = '';
        closed = false;
        i++;
      } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
        cells.push(cell);
        i += c === '\r' ? 2 : 1;
        line++;
        break;
      } else if (closed) {
        throw new CsvError(`line ${line}: text after the closing quote of a field (a quote inside a quoted field is written twice: "")`);
      } else if (c === '"' && cell === '') {
        quoted = true;
        i++;
      } else {
        cell += c;
        i++;
      }
    }
    records.push({ line: startLine, text: text.slice(start, i).replace(/\r?\n$/, ''), cells });
  }
  const [head, ...rows] = records;
  if (!head) throw new CsvError('no header row');
  return { header: head.cells, headerText: head.text, rows };
}

/** An --each file read as CSV: a file that is not one is a usage error saying where it breaks. */
export function eachCsv(text: string): Csv {
  try {
    return parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError) throw new UsageError(`--each: not a CSV file with a header row (${error.message})`);
    throw error;
  }
}
