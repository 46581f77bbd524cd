// --dry-run: the request as it would leave, token redacted, nothing sent.
import type { PreparedRequest } from '../api/client.js';
import type { Context } from '../context.js';
import { redactSecrets } from '../output/redact.js';

export function printDryRun(prepared: PreparedRequest, ctx: Context): void {
  const request = { ...prepared, body: redactSecrets(prepared.body) };
  const { stdout } = ctx.io;
  if (ctx.format === 'json') {
    const { operation: _, ...shown } = request;
    stdout.write(`${JSON.stringify(shown, null, stdout.isTTY ? 2 : undefined)}\n`);
    return;
  }
  stdout.write(`${request.method} ${request.url}\n`);
  for (const [name, value] of Object.entries(request.headers)) stdout.write(`${name}: ${value}\n`);
  if (request.body !== undefined) stdout.write(`\n${JSON.stringify(request.body, null, 2)}\n`);
  ctx.note('(dry run: nothing was sent)');
}
