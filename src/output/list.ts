// A list's records as they arrive, page after page: written in the run's format as each page comes
// (NDJSON lines, CSV or TSV rows under one header, table rows under one head with the first page's
// column widths, and JSON in the platform's page shape, one page holding them all), never gathered,
// so memory stays flat however long the list. Every write is whole records: a run stopped between
// pages leaves no half line or row. A --query over the whole list (or --raw) needs the whole list:
// then, and for a single page, the records are gathered and shown as any result is (JSON as the
// page the store answered).
import { headerRow, recordRow, type DelimitedOptions } from './csv.js';
import { defaultPaths, project } from './columns.js';
import { querier } from './query.js';
import { jsonText, withoutRunnerCommands } from '../printable.js';
import type { ColorLevel } from './color.js';
import type { Format } from './render.js';
import type { ViewName } from './views.js';

/** What the run asked for, as far as a list's output goes (the output's settings). */
export interface ListSettings {
  format: Format;
  query?: string;
  raw?: boolean;
  color: ColorLevel;
  columns?: readonly string[];
  csvRaw?: boolean;
}

export interface ListOptions {
  view?: ViewName;
  /** Pages follow one another (--all, --limit): stream them. Otherwise the one page is shown whole. */
  stream: boolean;
}

/** A page's links as the store gave them (null on the last page, and for pages followed to the end). */
export interface PageLinks {
  next: unknown;
  previous: unknown;
}

export interface ListSink {
  /** A page's records, written (or kept, for a whole result) at once. */
  page(records: readonly unknown[], links: PageLinks): void;
  /**
   * Ends the list: the closing of an array or a table's last border, so that what was printed is
   * whole; or, when the list was gathered and is `complete`, the result.
   */
  end(complete: boolean): Promise<void>;
}

export interface ListWriters {
  /** Writes whole lines to stdout. */
  text(text: string): void;
  /** Shows a gathered result as any command's result. */
  result(data: unknown, view: ViewName | undefined): Promise<void>;
  /** The table's width and colour, for a streamed table. */
  table(): { width: number | undefined; color: ColorLevel };
}

export async function listSink(settings: ListSettings, writers: ListWriters, options: ListOptions): Promise<ListSink> {
  const { format, query, columns } = settings;
  const gather = !options.stream || settings.raw || (query !== undefined && format !== 'ndjson');
  if (gather) {
    const all: unknown[] = [];
    let last: PageLinks = { next: null, previous: null };
    return {
      page: (records, links) => {
        all.push(...records);
        last = links;
      },
      end: async (complete) => {
        if (complete) await writers.result(format === 'json' ? { next: last.next ?? null, previous: last.previous ?? null, results: all } : all, options.view);
      },
    };
  }
  switch (format) {
    case 'ndjson': {
      const search = query === undefined ? undefined : await querier(query);
      return lineSink(writers, (record) => `${jsonText(search ? search(shaped(record, columns)) : shaped(record, columns))}\n`);
    }
    case 'json':
      return jsonSink(writers, columns);
    case 'csv':
    case 'tsv':
      return delimitedSink(writers, { format, raw: settings.csvRaw }, columns);
    default: {
      const { tableStream } = await import('./table-stream.js');
      return tableStream(writers, options.view, columns);
    }
  }
}

const shaped = (record: unknown, columns: readonly string[] | undefined) => (columns ? project(record, columns) : record);

function lineSink(writers: ListWriters, line: (record: unknown) => string): ListSink {
  return {
    page: (records) => {
      if (records.length > 0) writers.text(records.map(line).join(''));
    },
    end: async () => {},
  };
}

/** The platform's page shape, one page holding every record, a record per line: whole JSON even when the run stops between pages. */
function jsonSink(writers: ListWriters, columns: readonly string[] | undefined): ListSink {
  const HEAD = '{"next":null,"previous":null,"results":[';
  let started = false;
  return {
    page: (records) => {
      if (records.length === 0) return;
      writers.text(records.map((record, i) => `${started || i > 0 ? ',\n' : `${HEAD}\n`}${jsonText(shaped(record, columns))}`).join(''));
      started = true;
    },
    end: async () => writers.text(started ? '\n]}\n' : `${HEAD}]}\n`),
  };
}

/** A header row from --columns or the first record's fields, then a row per record. */
function delimitedSink(writers: ListWriters, delimited: DelimitedOptions, columns: readonly string[] | undefined): ListSink {
  let paths = columns;
  let headed = false;
  return {
    page: (records) => {
      if (records.length === 0) return;
      paths ??= defaultPaths(records[0]);
      // A cell over several lines can start none that a CI runner reads as a workflow command, raw or not.
      writers.text(withoutRunnerCommands(`${headed ? '' : headerRow(paths, delimited)}${records.map((record) => recordRow(record, paths!, delimited)).join('')}`));
      headed = true;
    },
    // A list with nothing in it still has its header, where the columns are known.
    end: async () => {
      if (!headed && paths) writers.text(headerRow(paths, delimited));
    },
  };
}
