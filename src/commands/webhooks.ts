// `store-admin webhooks …`
import { Option, type Command } from 'commander';
import { WEBHOOK_EVENTS } from '../api/enums.js';
import type { IO } from '../io.js';
import { redactSecrets } from '../output/redact.js';
import { addOperationCommand, type Options } from './define.js';
import { collect, secretFrom } from './values.js';

const present = (data: unknown, opts: Options) => (opts.showSecret ? data : redactSecrets(data));
const showSecret = (command: Command) => command.option('--show-secret', "print the webhook's secret key instead of masking it");

export function register(webhooks: Command, io: IO): void {
  addOperationCommand(webhooks, io, {
    name: 'create',
    operation: 'webhooks.create',
    options: (command) => {
      command
        .option('--target <url>', 'the http(s) URL that receives the events (at most 255 characters)')
        .option('--event <name>', `an event to subscribe to, e.g. order.created (repeatable; any name is accepted)`, collect)
        .option('--name <name>', 'a name for the webhook')
        .option('--secret-key-file <file>', 'read the secret key from a file, or - for standard input (kept out of the process list)')
        .addOption(
          new Option('--secret-key <secret>', 'the secret key (visible to other users in the process list; prefer --secret-key-file)').conflicts(
            'secretKeyFile',
          ),
        )
        .option('--webhook-api-version <version>', "the API version of the webhook's deliveries (a global --api-version sets the request header instead)")
        .option('--inactive', 'create it switched off');
      showSecret(command);
    },
    flags: { events: '--event', api_version: '--webhook-api-version', active: '--inactive', secret_key: '--secret-key' },
    body: async (opts, ctx) => {
      const target = opts.target ?? (await ctx.prompt.text({ flag: '--target', message: 'Target URL (https://…):' }));
      const events = (opts.event as string[] | undefined) ??
        (await ctx.prompt.checkbox({ flag: '--event', message: 'Events to subscribe to:', choices: WEBHOOK_EVENTS }));
      const secret =
        opts.secretKeyFile !== undefined ? await secretFrom(String(opts.secretKeyFile), '--secret-key-file', ctx.io) : opts.secretKey;
      return {
        target,
        events,
        ...(opts.name !== undefined ? { name: opts.name } : {}),
        ...(secret !== undefined ? { secret_key: secret } : {}),
        ...(opts.webhookApiVersion !== undefined ? { api_version: opts.webhookApiVersion } : {}),
        ...(opts.inactive ? { active: false } : {}),
      };
    },
    present,
    view: 'webhook',
    progress: 'Registering the webhook…',
    examples: [
      'store-admin webhooks create --target https://hooks.example.com/store --event order.created --event order.updated',
      'store-admin webhooks create --target https://hooks.example.com/store --event dispute.created --secret-key-file secret.txt --inactive',
    ],
  });

  addOperationCommand(webhooks, io, {
    name: 'get',
    operation: 'webhooks.get',
    args: [['id', 'id', 'webhook id']],
    options: showSecret,
    present,
    view: 'webhook',
    progress: 'Fetching the webhook…',
    examples: ['store-admin webhooks get 1', 'store-admin webhooks get 1 --json --show-secret'],
  });
}
