// --dry-run: the request as it would leave, token and secrets redacted, nothing sent. One shape
// for a single command and for each line of an --each run (which adds the line's `input`).
import type { PreparedRequest } from '../api/client.js';
import type { Context } from '../context.js';
import { redactSecrets } from '../output/redact.js';

export interface DryRunRecord {
  /** The line's values, in an --each run. */
  input?: string[];
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export function dryRunRecord(prepared: PreparedRequest, input?: string[]): DryRunRecord {
  const { method, url, headers, body } = prepared;
  return { ...(input ? { input } : {}), method, url, headers, ...(body !== undefined ? { body: redactSecrets(body) } : {}) };
}

/** A single command's request: JSON for scripts, the request as text for people. */
export async function printDryRun(prepared: PreparedRequest, ctx: Context): Promise<void> {
  await ctx.output.result(dryRunRecord(prepared), { text: requestText });
  ctx.output.prose('(dry run: nothing was sent)');
}

/** An --each run's requests: a record per line (NDJSON unless a table is asked for). */
export async function printDryRuns(records: DryRunRecord[], ctx: Context): Promise<void> {
  const lines = await ctx.output.records<DryRunRecord>({ text: (record, i) => `${i > 0 ? '\n' : ''}# ${record.input?.join(' ')}\n${requestText(record)}` });
  for (const record of records) lines.write(record);
  lines.end();
  ctx.output.prose(`(dry run: nothing was sent; ${records.length} request${records.length === 1 ? '' : 's'} shown)`);
}

function requestText({ method, url, headers, body }: DryRunRecord): string {
  const lines = [`${method} ${url}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\n')}\n${body === undefined ? '' : `\n${JSON.stringify(body, null, 2)}\n`}`;
}
