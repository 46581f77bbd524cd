// `store-admin webhooks …`
import type { Command } from 'commander';
import { WEBHOOK_EVENTS } from '../api/enums.js';
import type { Context } from '../context.js';
import { redactSecrets } from '../output/redact.js';
import { addOperationCommand, type Options } from './define.js';
import type { Field } from './fields.js';
import { registerListen } from './webhook-listen.js';
import { registerTrigger } from './webhook-trigger.js';
import { registerVerify } from './webhook-verify.js';

const present = (data: unknown, opts: Options) => (opts.showSecret ? data : redactSecrets(data));
const showSecret = (command: Command) => command.option('--show-secret', "print the webhook's secret key instead of masking it");

const createFields: readonly Field[] = [
  { key: 'target', help: 'the URL that receives the events', prompt: { message: 'Target URL (https://…):' } },
  {
    key: 'events',
    flag: 'event',
    kind: 'list',
    help: 'events to subscribe to, e.g. order.created (any name is accepted)',
    // Suggestions only: webhooks take any event name.
    suggestions: WEBHOOK_EVENTS,
    prompt: { message: 'Events to subscribe to:' },
  },
  { key: 'name', help: 'a name for the webhook' },
  {
    key: 'secret_key',
    help: 'the secret key (visible to other users in the process list; prefer --secret-key-file)',
    file: 'read the secret key from a file, or - for standard input (kept out of the process list)',
    prompt: { message: 'Secret key for signing deliveries (Enter for none):', when: 'bare', optional: true, masked: true },
  },
  { key: 'api_version', flag: 'webhook-api-version', help: "the API version of the webhook's deliveries (a global --api-version sets the request header instead)" },
  { key: 'active', flag: 'inactive', kind: 'switch', help: 'create it switched off', sets: false },
];

export function register(webhooks: Command, ctx: Context): void {
  addOperationCommand(webhooks, ctx, {
    name: 'create',
    operation: 'webhooks.create',
    fields: createFields,
    options: showSecret,
    present,
    view: 'webhook',
    progress: 'Registering the webhook…',
    examples: [
      'store-admin webhooks create --target https://hooks.example.com/store --event order.created,order.updated',
      'store-admin webhooks create --target https://hooks.example.com/store --event dispute.created --secret-key-file secret.txt --inactive',
    ],
  });

  addOperationCommand(webhooks, ctx, {
    name: 'get',
    operation: 'webhooks.get',
    args: [['id', 'id', 'webhook id']],
    options: showSecret,
    present,
    view: 'webhook',
    progress: 'Fetching the webhook…',
    examples: ['store-admin webhooks get 1', 'store-admin webhooks get 1 --json --show-secret'],
  });

  registerListen(webhooks, ctx);
  registerTrigger(webhooks, ctx);
  registerVerify(webhooks, ctx);
}
