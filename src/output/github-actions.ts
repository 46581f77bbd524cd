// GitHub Actions, as its runner reads a step: outputs appended to $GITHUB_OUTPUT, Markdown appended
// to $GITHUB_STEP_SUMMARY, and errors as `::error` workflow commands. Each does nothing outside
// Actions; other CI systems read the same results through --json.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { StoreAdminError } from '../api/errors.js';
import type { IO } from '../io.js';
import { printableLine } from '../printable.js';

/** Appends step outputs (`name=value`, or `name<<DELIMITER` for a value that spans lines). */
export function setOutputs(io: IO, values: Record<string, string | number>): void {
  const file = io.env.GITHUB_OUTPUT;
  if (!file) return;
  append(io, 'GITHUB_OUTPUT', file, Object.entries(values).map(([name, value]) => outputEntry(name, String(value))).join(''));
}

function outputEntry(name: string, value: string): string {
  if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
  let delimiter: string;
  do delimiter = `ghadelimiter_${randomUUID()}`;
  while (value.includes(delimiter));
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

/** Appends Markdown to the job's summary page. */
export function addSummary(io: IO, markdown: string): void {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (file) append(io, 'GITHUB_STEP_SUMMARY', file, `${markdown}\n`);
}

function append(io: IO, variable: string, file: string, text: string): void {
  try {
    // Whatever goes there, the run's token does not.
    appendFileSync(file, io.scrub ? io.scrub(text) : text);
  } catch (error) {
    throw new StoreAdminError(`Cannot append to $${variable} (${file}): ${(error as Error).message}`);
  }
}

/** Text shown as code in a Markdown table cell, whatever it holds. */
export function markdownCode(text: string): string {
  const cell = text.replace(/[\r\n]+/g, ' ').replace(/\|/g, '\\|');
  const fence = '`'.repeat(Math.max(0, ...(cell.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = cell.startsWith('`') || cell.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${cell}${pad}${fence}`;
}

/**
 * The error as an annotation on the run's page (`::error title=…::message`), escaped as the
 * runner's workflow commands require: a store's text can neither end the command nor start another.
 */
export function errorAnnotation(exitCode: number, message: string, hint?: string): string {
  const text = hint ? `${printableLine(message)}\n${printableLine(hint)}` : printableLine(message);
  return `::error title=${escapeProperty(`store-admin (exit ${exitCode})`)}::${escapeData(text)}\n`;
}

/**
 * The failure as the step's summary shows it: a heading, then the message and hint as a code
 * block, so that a store's text shows as it is and cannot format the page.
 */
export function failureSummary(exitCode: number, message: string, hint?: string): string {
  const text = hint ? `${printableLine(message)}\nhint: ${printableLine(hint)}` : printableLine(message);
  const fence = '`'.repeat(Math.max(3, ...(text.match(/`+/g) ?? []).map((run) => run.length + 1)));
  return `### store-admin failed (exit ${exitCode})\n\n${fence}text\n${text}\n${fence}\n`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
