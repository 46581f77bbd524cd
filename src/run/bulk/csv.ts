// CSV input for --each, as spreadsheets export it: a header row naming the columns, fields
// quoted when they hold commas, quotes or line breaks (a quote doubled inside), CRLF or LF line
// ends, and a last line with or without its newline. Blank lines and lines starting with # are
// skipped, as in plain --each files.

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

export function parseCsv(text: string): Csv {
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
    let quoted = false;
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
          i++;
        } else {
          if (c === '\n') line++;
          cell += c;
          i++;
        }
      } else if (c === '"' && cell === '') {
        quoted = true;
        i++;
      } else if (c === ',') {
        cells.push(cell);
        cell = '';
        i++;
      } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
        cells.push(cell);
        i += c === '\r' ? 2 : 1;
        line++;
        break;
      } else {
        cell += c;
        i++;
      }
    }
    records.push({ line: startLine, text: text.slice(start, i).replace(/\r?\n$/, ''), cells: cells.map((value) => value.trim()) });
  }
  const [head, ...rows] = records;
  if (!head) throw new CsvError('no header row');
  return { header: head.cells, headerText: head.text, rows };
}
