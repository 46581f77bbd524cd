// `store-admin webhooks …`: what the table's commands for webhooks need beyond their facts (secrets
// masked, event names checked), and the group's commands that are more than one operation.
import type { Command } from 'commander';
import { WEBHOOK_EVENTS } from '../api/enums.js';
import type { Context } from '../context.js';
import { redactSecrets } from '../output/redact.js';
import { ALLOW_UNKNOWN_EVENT, unknownEvent } from '../webhooks/event-names.js';
import type { FlagsOf, FlagTable } from '../options.js';
import type { Field } from '../fields/declare.js';
import type { BodyField } from '../run/spec.js';
import { refine } from './table-commands.js';
import { registerApply } from './webhook-apply.js';
import { registerDeliveries } from './webhook-deliveries.js';
import { registerListen } from './webhook-listen.js';
import { registerTrigger } from './webhook-trigger.js';
import { registerVerify } from './webhook-verify.js';

const showSecret = { showSecret: { flags: '--show-secret', help: "print the webhook's secret key instead of masking it" } } as const satisfies FlagTable;
const present = (data: unknown, opts: FlagsOf<typeof showSecret>) => (opts.showSecret ? data : redactSecrets(data));

/** Secrets are never printed by list, update, delete and apply; create and get show one on request. */
const masked = (data: unknown) => redactSecrets(data);
/** How to find webhooks by an event's name: the store's own filter takes ids the platform does not publish. */
const byEventName = (name: string) => `store-admin webhooks list --all --json -q "results[?contains(events, '${name}')]"`;

/**
 * The list's `events` filter takes event ids (whole numbers); a webhook answers its events by name,
 * and the platform publishes no id for a name, so a name is refused with the way to find it.
 */
const eventIdsFilter: Field = {
  key: 'events',
  kind: 'list',
  item: 'integer',
  help: 'event ids, whole numbers: the platform does not publish which id is which event; to find webhooks by event name, see the last example',
  checkItem: (item) =>
    /^\d+$/.test(item) ? undefined : `"${item}" is an event name; the platform filters by event id and publishes no ids. Find webhooks by event name with: ${byEventName(item)}`,
};

const allowUnknownEvent = {
  allowUnknownEvent: { flags: ALLOW_UNKNOWN_EVENT, help: 'accept event names the platform publishes after this version of the tool' },
} as const satisfies FlagTable;


/** A field create and update share: both bodies have the same keys. */
type WebhookField = BodyField<'webhooksCreate'> & BodyField<'webhooksPartialUpdate'>;

const targetField: WebhookField = { key: 'target', help: 'the URL that receives the events' };
const eventsField: WebhookField = {
  key: 'events',
  flag: 'event',
  kind: 'list',
  help: `events to subscribe to, e.g. order.created (the platform's published names; ${ALLOW_UNKNOWN_EVENT} for others)`,
  suggestions: WEBHOOK_EVENTS,
  // A typo would subscribe to nothing: refused with the nearest published name.
  checkItem: (name, opts) => (opts.allowUnknownEvent ? undefined : unknownEvent(name)),
};
const secretField: WebhookField = {
  key: 'secret_key',
  help: 'the secret key (visible to other users in the process list; prefer --secret-key-file)',
  file: 'read the secret key from a file, or - for standard input (kept out of the process list)',
};
const nameField: WebhookField = { key: 'name', help: 'a name for the webhook' };
const apiVersionField: WebhookField = {
  key: 'api_version',
  flag: 'webhook-api-version',
  help: "the API version of the webhook's deliveries (a global --api-version sets the request header instead)",
};

const createFields: readonly BodyField<'webhooksCreate'>[] = [
  { ...targetField, prompt: { message: 'Target URL (https://…):' } },
  { ...eventsField, prompt: { message: 'Events to subscribe to:' } },
  nameField,
  { ...secretField, prompt: { message: 'Secret key for signing deliveries (Enter for none):', when: 'bare', optional: true, masked: true } },
  apiVersionField,
  { key: 'active', flag: 'inactive', kind: 'switch', help: 'create it switched off', sets: false },
];

const updateFields: readonly BodyField<'webhooksPartialUpdate'>[] = [
  targetField,
  { ...eventsField, help: `${eventsField.help}; replaces the webhook's list` },
  { ...nameField, help: 'a new name' },
  { ...secretField, help: 'a new secret key, or null for none (visible to other users in the process list; prefer --secret-key-file)' },
  { ...apiVersionField, help: `${apiVersionField.help}; null for the store's default` },
  {
    key: 'active',
    kind: 'switch',
    help: 'switch it on',
    sets: true,
    negatedFlag: 'inactive',
    negatedHelp: 'switch it off (the store stops sending its events)',
  },
];

export const refinements = [
  refine({
    operation: 'webhooksCreate',
    fields: createFields,
    flags: { ...showSecret, ...allowUnknownEvent },
    present,
    view: 'webhook',
    progress: 'Registering the webhook…',
    examples: [
      'store-admin webhooks create --target https://hooks.example.com/store --event order.created,order.updated',
      'store-admin webhooks create --target https://hooks.example.com/store --event dispute.created --secret-key-file secret.txt --inactive',
    ],
  }),
  refine({
    operation: 'webhooksRetrieve',
    args: [['id', 'id', 'webhook id']],
    flags: showSecret,
    present,
    view: 'webhook',
    progress: 'Fetching the webhook…',
    examples: ['store-admin webhooks get 1', 'store-admin webhooks get 1 --json --show-secret'],
  }),
  refine({
    operation: 'webhooksList',
    query: [
      { key: 'name', help: 'only webhooks with exactly this name' },
      { key: 'active', kind: 'switch', help: 'only active webhooks', sets: true, negatedFlag: 'inactive', negatedHelp: 'only inactive webhooks' },
      eventIdsFilter,
    ],
    present: masked,
    view: 'webhooks',
    progress: 'Fetching webhooks…',
    examples: ['store-admin webhooks list', 'store-admin webhooks list --all --inactive', "store-admin webhooks list --name 'Order sync' --json -q 'results[0].id'", byEventName('order.created')],
  }),
  refine({
    operation: 'webhooksUpdate',
    args: [['id', 'id', 'webhook id']],
    description: "Replace a webhook's target, events and settings (fields not given are reset)",
    fields: [{ ...targetField, prompt: { message: 'Target URL (https://…):' } }, { ...eventsField, prompt: { message: 'Events to subscribe to:' } }, ...updateFields.slice(2)],
    flags: allowUnknownEvent,
    present: masked,
    view: 'webhook',
    progress: 'Replacing the webhook…',
    examples: [
      'store-admin webhooks replace 1 --target https://hooks.example.com/v2 --event order.created',
      'store-admin webhooks replace 1 --data @webhook.json',
    ],
  }),
  refine({
    operation: 'webhooksPartialUpdate',
    args: [['id', 'id', 'webhook id']],
    description: 'Change some fields of a webhook (only the fields given are sent)',
    fields: updateFields,
    requireSome: 'at least one of --target, --event, --name, --secret-key(-file), --webhook-api-version, --active, --inactive',
    flags: allowUnknownEvent,
    present: masked,
    view: 'webhook',
    progress: 'Updating the webhook…',
    examples: [
      'store-admin webhooks update 1 --event order.created,order.updated,dispute.created',
      'store-admin webhooks update 1 --target https://hooks.example.com/v2 --secret-key-file new-secret.txt',
      'store-admin webhooks update 1 --inactive',
    ],
  }),
  refine({
    operation: 'webhooksDestroy',
    args: [['id', 'id', 'webhook id']],
    confirm: ({ params }) => `Delete webhook ${params.id}? The store stops sending its events; this cannot be undone.`,
    view: 'webhook',
    progress: 'Deleting the webhook…',
    // 204 with no body: nothing for stdout; a person is told it is done.
    settle: async (_data, _opts, ctx, { params }) => {
      ctx.output.prose(`Deleted webhook ${String(params.id)}.`);
      return undefined;
    },
    examples: ['store-admin webhooks delete 3', 'store-admin webhooks delete 3 --yes', 'store-admin webhooks delete --each ids.txt --yes'],
  }),
];

/** The group's commands that are more than one operation. */
export function register(webhooks: Command, ctx: Context): void {
  registerApply(webhooks, ctx);
  registerDeliveries(webhooks, ctx);
  registerListen(webhooks, ctx);
  registerTrigger(webhooks, ctx);
  registerVerify(webhooks, ctx);
}
