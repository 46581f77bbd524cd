// `store-admin api PATH`: any path of the API with the tool's auth, profiles, retries and output,
// in the manner of `gh api`. The work lives in api-request.ts, loaded when the command runs.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';
import { collect } from '../fields/values.js';

export function register(api: Command, ctx: Context): void {
  api
    .argument('<path>', 'path under /api/admin, e.g. /exports/types/ (the final "/" is added if missing; a query string may follow)')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST when fields or --input are given)')
    .option('-f, --raw-field <key=value>', 'a string field; key[]=v appends to an array, key[sub]=v nests (repeatable)', collect)
    .option('-F, --field <key=value>', 'a typed field: true, false, null and numbers are converted, @file reads a file, @- stdin (repeatable)', collect)
    .option('--input <file>', 'the request body, as JSON, from a file or - (stdin); fields then go to the query string')
    .option('-H, --header <name: value>', 'an extra request header (repeatable)', collect)
    .option('-i, --include', 'print the status line and the response headers before the body')
    .option('--paginate', 'follow the {next, previous, results} wrapper and print one merged array')
    .option('--show-secret', 'print secret values the store returns (a webhook secret_key) instead of masking them')
    .action(localAction(ctx, async (ctx, opts, [path]) => (await import('./api-request.js')).apiRequest(ctx, path!, opts)));
  describeCommand(api, {
    examples: [
      'store-admin api /exports/types/',
      'store-admin api /subscriptions/1/ -X PATCH -F interval_count=2 -f shipping_code=express',
      'store-admin api /webhooks/ -F "events[]=order.created" -F "events[]=order.updated" -f target=https://hooks.example.com/x',
      'store-admin api /webhooks/ --paginate --query "[].target"',
      'store-admin api /categories/1/ --include',
    ],
    confirms: {
      when: 'when the method and path are such an operation (cancel, renew, remove a line, reject a cancellation)',
      example: 'store-admin api /subscriptions/1/cancel/ -X POST -f cancel_reason=other',
    },
  });
}
