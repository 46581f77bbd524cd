// `store-admin webhooks verify`: declared here, run by src/webhooks/verify-delivery.ts.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';
import { secretFrom } from '../fields/values.js';

export function registerVerify(webhooks: Command, ctx: Context): void {
  const command = webhooks
    .command('verify')
    .description("Check a saved delivery's signature (exit 0 when it matches, 1 when not) and say which serialisation matched")
    .argument('[file]', 'the delivery: its body, the whole request with headers, or a line of webhooks listen --json (- or nothing for standard input)')
    .requiredOption('--secret-file <file>', "the webhook's secret key, read from a file (- for standard input)")
    .option('--signature <hex>', 'the X-Store-Signature header (read from the saved headers when not given)')
    .action(
      localAction(ctx, async (ctx, opts, [file]) => {
        const { describeMatch, SignatureMismatchError, verifyDelivery } = await import('../webhooks/verify-delivery.js');
        if (opts.secretFile === '-' && (file === undefined || file === '-')) {
          throw new (await import('../api/errors.js')).UsageError('--secret-file - and the delivery cannot both come from standard input');
        }
        const secret = await secretFrom(String(opts.secretFile), '--secret-file', ctx.io);
        const check = await verifyDelivery(ctx.io, { secret, signature: typeof opts.signature === 'string' ? opts.signature : undefined, source: file });
        await ctx.output.result(check, { text: (check) => `${describeMatch(check)}\n` });
        if (!check.valid) throw new SignatureMismatchError('the signature does not match this delivery and secret');
      }),
    );
  describeCommand(command, {
    examples: [
      'store-admin webhooks verify --secret-file secret.txt --signature 3f1c… delivery.json',
      'store-admin webhooks verify --secret-file secret.txt saved-request.http',
    ],
  });
}
