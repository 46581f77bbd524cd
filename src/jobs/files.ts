// The files a job writes and reads: the plan (`--plan FILE`: a row per input line with its class,
// the object, the state that decided it and what will be done; `--apply-plan FILE` reads it back,
// settings and all) and the results report (`--report FILE`: line, object id, outcome, class,
// error; no customer data, so it can be shared; in GitHub Actions also the step's summary).
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../api/errors.js';
import { writeAtomically } from '../atomic-write.js';
import type { IO } from '../io.js';
import { addSummary, markdownCode } from '../output/github-actions.js';
import { headerRow, recordRow } from '../output/csv.js';
import { CsvError, parseCsv } from '../run/bulk/csv.js';
import { columnsOf } from './input.js';
import { CLASSES, type Cells, type Job, type LineClass } from './job.js';

/** What a plan's first line says of it: the job, the store, when, and the settings its lines were planned with. */
export interface PlanHeader {
  job: string;
  store: string;
  made: string;
  settings: unknown;
}

/** A line of a plan. */
export interface PlanRow {
  line: number;
  cells: Cells;
  class: LineClass;
  object?: string;
  state?: string;
  reason: string;
  amount?: string;
}

const PLAN_MARK = '# store-admin plan ';
const PLAN_COLUMNS = ['class', 'object', 'state', 'reason', 'amount'] as const;

/** Refuses a file that cannot be written, before anything is read or sent. */
export function checkWritable(path: string, flag: string): void {
  let folder;
  try {
    folder = statSync(dirname(path));
  } catch {
    throw new UsageError(`${flag} ${path}: no such folder`);
  }
  if (!folder.isDirectory()) throw new UsageError(`${flag} ${path}: ${dirname(path)} is not a folder`);
  try {
    if (statSync(path).isDirectory()) throw new UsageError(`${flag} ${path} is a folder`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
  }
}

export async function writePlan(path: string, job: Job, header: PlanHeader, rows: readonly PlanRow[]): Promise<void> {
  const columns = ['line', ...columnsOf(job), ...PLAN_COLUMNS];
  // Read back as written: the plan is the input of --apply-plan, so no cell is altered for a spreadsheet.
  const csv = { format: 'csv', raw: true } as const;
  const body = rows.map((row) => recordRow({ ...row.cells, ...row, cells: undefined }, columns, csv)).join('');
  await writeAtomically(path, `${PLAN_MARK}${JSON.stringify(header)}\n${headerRow(columns, csv)}${body}`);
}

export function readPlan(text: string, job: Job, source: string): { header: PlanHeader; rows: PlanRow[] } {
  const first = text.replace(/^\ufeff/, '').split(/\r?\n/, 1)[0]!;
  let header: PlanHeader | undefined;
  try {
    if (first.startsWith(PLAN_MARK)) header = JSON.parse(first.slice(PLAN_MARK.length)) as PlanHeader;
  } catch {
    header = undefined;
  }
  if (!header || typeof header.job !== 'string' || typeof header.store !== 'string') {
    throw new UsageError(`--apply-plan ${source}: not a plan this tool wrote (its first line is not "${PLAN_MARK.trim()} {…}")`, { hint: 'Make one with --plan FILE' });
  }
  if (header.job !== job.command) throw new UsageError(`--apply-plan ${source}: that is a plan of ${header.job}, not ${job.command}`);
  let csv;
  try {
    csv = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError) throw new UsageError(`--apply-plan ${source}: ${error.message}`);
    throw error;
  }
  const at = (name: string) => csv.header.indexOf(name);
  const missing = ['line', ...columnsOf(job).slice(0, 1), 'class'].filter((name) => at(name) < 0);
  if (missing.length > 0) throw new UsageError(`--apply-plan ${source}: no column ${missing.join(', ')}`);
  const rows = csv.rows.map((row) => {
    const cell = (name: string) => (at(name) < 0 ? undefined : row.cells[at(name)]);
    const line = Number(cell('line'));
    const planned = cell('class') as LineClass;
    if (!Number.isInteger(line) || line < 1 || !(planned in CLASSES)) {
      throw new UsageError(`--apply-plan ${source}: line ${row.line} is not a plan's row (line ${JSON.stringify(cell('line'))}, class ${JSON.stringify(planned)})`);
    }
    const cells = Object.fromEntries(columnsOf(job).flatMap((column) => (cell(column) ? [[column, cell(column)!]] : [])));
    return { line, cells, class: planned, object: cell('object') || undefined, state: cell('state') || undefined, reason: cell('reason') ?? '' };
  });
  return { header, rows };
}

/** A line's outcome, as the report has it. */
export interface ReportRow {
  line: number;
  object_id: string;
  outcome: 'applied' | 'skipped' | 'failed';
  class: LineClass | '';
  error: string;
}

const REPORT_COLUMNS = ['line', 'object_id', 'outcome', 'class', 'error'] as const;

/** An address in a store's message goes no further than this machine: the report is for sharing. */
export const withoutAddresses = (text: string) => text.replace(/[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[A-Za-z]{2,}/g, '***');

export async function writeReport(path: string, rows: readonly ReportRow[]): Promise<void> {
  // For spreadsheets and people: a cell a spreadsheet would run as a formula is neutralised.
  const csv = { format: 'csv' } as const;
  await writeAtomically(path, `${headerRow([...REPORT_COLUMNS], csv)}${rows.map((row) => recordRow(row, REPORT_COLUMNS, csv)).join('')}`, { mode: 0o644 });
}

/** How many rows the step's summary shows; the report file has them all. */
const SUMMARY_ROWS = 1000;

/** The report as a table on the GitHub Actions step's summary page (nothing elsewhere). */
export function summariseReport(io: IO, title: string, rows: readonly ReportRow[], file: string | undefined): void {
  if (!io.env.GITHUB_STEP_SUMMARY) return;
  const shown = rows.slice(0, SUMMARY_ROWS);
  const table = shown.map((row) => `| ${row.line} | ${markdownCode(row.object_id)} | ${row.outcome} | ${row.class} | ${row.error ? markdownCode(row.error) : ''} |`);
  const more = rows.length > shown.length ? `\n${rows.length - shown.length} more rows${file ? ` in ${markdownCode(file)}` : ''}.\n` : '';
  addSummary(io, `### ${title}\n\n| line | object id | outcome | class | error |\n|---|---|---|---|---|\n${table.join('\n')}\n${more}`);
}
