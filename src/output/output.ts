// The one owner of what a run prints. Its result goes to stdout as the run asks (JSON, NDJSON or
// a table, with --query and --raw); records go one by one (NDJSON, --each lines); prose for people
// goes to stderr above the status line and stays off with --quiet. Commands receive it as
// `ctx.output` and never write to a stream themselves. Every line of text for people passes one
// rule on its way out (safeText): a store's value in it can neither act on the terminal nor start
// a CI runner's workflow command; colour is added after it, by a painter, never by the text.
import type { Writable } from 'node:stream';
import type { IO } from '../io.js';
import { jsonText, printableLine, safeText } from '../printable.js';
import type { ColorLevel } from './color.js';
import { querier, rawLines } from './query.js';
import { recordLines, type RecordSink } from './record-lines.js';
import { writeOut, type RunSignals } from './pager.js';
import { render, type Format } from './render.js';
import { startSpinner } from './spinner.js';
import { statusLine, type StatusLine } from './status-line.js';
import type { ListOptions, ListSink } from './list.js';
import type { ViewName } from './views.js';

/** What the run asked for, read when something is printed (the options are parsed after the context is made). */
export interface OutputSettings {
  format: Format;
  /** A JMESPath expression, already checked with `checkQuery`. */
  query?: string;
  raw?: boolean;
  color: ColorLevel;
  quiet?: boolean;
  /** --columns, as dotted paths. */
  columns?: readonly string[];
  /** --csv-raw. */
  csvRaw?: boolean;
}

export interface ResultOptions<T> {
  view?: ViewName;
  /** What a person reads in place of a table (the table format, when no --query has reshaped the result). */
  text?: (data: T) => string;
  /** A table has no columns for this result (any answer of `api`): JSON, or NDJSON when asked. */
  table?: false;
}

export interface RecordOptions<T> {
  /** A record as a person's text, for the table format; otherwise each record is a JSON line. */
  text?: (record: T, index: number) => string;
  /** How the run's --query applies to a record (`search` applies it, and throws when it cannot); without one, not at all. */
  query?: (record: T, search: (data: unknown) => unknown) => unknown;
}

export type { RecordSink };

/** Colours the characters `from` to `to` of a line (the tool's own words) with an SGR code. */
export interface Paint {
  from: number;
  to: number;
  sgr: number;
}

/** Says how a line of text for people is coloured, if at all; it sees the line once made safe. */
export type Painter = (line: string) => Paint | undefined;

export interface Output {
  /** The command's result on stdout, as the run asks: --query, then --raw, then the format. */
  result<T>(data: T, options?: ResultOptions<T>): Promise<void>;
  /** Records one at a time on stdout: one JSON line each, or a person's text with the table format. */
  records<T>(options?: RecordOptions<T>): Promise<RecordSink<T>>;
  /** A list's records, page by page: streamed in the run's format, or shown whole as a result. */
  list(options: ListOptions): Promise<ListSink>;
  /** A line for people on stderr, above the status line; nothing with --quiet. */
  prose(line: string): void;
  /** Text for people on stderr, whatever --quiet says: an error, a --verbose trace, a URL the person must open. */
  log(text: string, paint?: Painter): void;
  /** Text on stdout that is itself the answer, whatever the format: help, a completion script, a token. */
  text(text: string, paint?: Painter): void;
  /** Text for a person to read on stdout (help), through the pager when it is longer than the screen. */
  page(text: string): Promise<void>;
  /** The store's text on stdout byte for byte, for a script that asked for it as it is (`api`'s body in a pipe). */
  data(text: string): void;
  /** A workflow command for the CI runner on stderr (`::error …`), written as it is: its maker escapes what it holds. */
  runnerCommand(line: string): void;
  /** stdout as a stream of bytes (UTF-8 text), for a body passed through as it arrives (a download to -). */
  writable(): Promise<Writable>;
  /** A spinner on the status line until the returned function is called; nothing with --quiet or off a terminal. */
  spinner(text: string | (() => string)): () => void;
  /** The status line of stderr, for progress that redraws in place (nothing is drawn off a terminal). */
  readonly status: StatusLine;
}

export function createOutput(io: IO, settings: () => OutputSettings, signals: RunSignals): Output {
  // stderr is made only when first used (making it costs start-up time): stdout text is lifted
  // above the status line once there is one.
  let line: StatusLine | undefined;
  const status = () => (line ??= statusLine(io.stderr));
  const stdout = (text: string) => void (line ? line.above(() => io.stdout.write(text)) : io.stdout.write(text));
  const forPeople = (text: string, paint?: Painter): string => {
    const safe = safeText(text);
    if (!paint || settings().color === 0) return safe;
    return safe
      .split('\n')
      .map((shown) => {
        const span = paint(shown);
        return span ? `${shown.slice(0, span.from)}\x1b[${span.sgr}m${shown.slice(span.from, span.to)}\x1b[0m${shown.slice(span.to)}` : shown;
      })
      .join('\n');
  };
  const page = (text: string) => writeOut(forPeople(text), io, signals);
  return {
    async result(data, options = {}) {
      const { format, query, raw, color, columns, csvRaw } = settings();
      const chosen = options.table === false && format === 'table' ? 'json' : format;
      if (chosen === 'table' && options.text && query === undefined && !(raw && rawLines(data ?? null) !== undefined)) {
        // Long text for a person is paged, as a table is.
        return page(options.text(data));
      }
      await render(data, io, { format: chosen, query, raw, color, signals, csvRaw, ...(columns ? { columns } : {}), ...(options.view ? { view: options.view } : {}) });
    },
    async list(options) {
      const [{ listSink }, { outputWidth }] = await Promise.all([import('./list.js'), import('./table.js')]);
      const writers = {
        text: stdout,
        result: (data: unknown, view: ViewName | undefined) => this.result(data, view ? { view } : {}),
        table: () => ({ width: outputWidth(io.stdout, io.env), color: settings().color }),
      };
      return listSink(settings(), writers, options);
    },
    async records<T>(options: RecordOptions<T> = {}) {
      const { format, query } = settings();
      const search = query !== undefined && options.query ? await querier(query) : undefined;
      const line = (record: T, index: number): string => {
        if (format === 'table' && options.text) return forPeople(options.text(record, index));
        return `${jsonText(search ? options.query!(record, search) : record)}\n`;
      };
      return recordLines(stdout, line);
    },
    prose(line) {
      if (!settings().quiet) status().above(() => io.stderr.write(`${safeText(printableLine(line))}\n`));
    },
    log(text, paint) {
      status().above(() => io.stderr.write(forPeople(text, paint)));
    },
    text: (text, paint) => stdout(forPeople(text, paint)),
    data: stdout,
    runnerCommand(command) {
      status().above(() => io.stderr.write(command));
    },
    page,
    writable: async () => (await import('./writable.js')).writableOver(io.stdout),
    spinner: (text) => (settings().quiet ? () => {} : (status(), startSpinner(io.stderr, text))),
    get status() {
      return status();
    },
  };
}
