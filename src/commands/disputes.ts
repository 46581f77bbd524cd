// `store-admin disputes …`
import { Option, type Command } from 'commander';
import { DISPUTE_RESOLUTIONS, DISPUTE_TYPES } from '../api/enums.js';
import type { IO } from '../io.js';
import { buildBody, dataOption, objectOption, type FieldFlag } from './body.js';
import { addOperationCommand } from './define.js';
import { dateTime, integerOrText, orNull } from './values.js';

const fields: readonly FieldFlag[] = [
  { field: 'type', key: 'type' },
  { field: 'amount', key: 'amount', convert: orNull },
  { field: 'currency', key: 'currency', convert: orNull },
  { field: 'transaction', key: 'transaction', convert: (v) => (v === 'null' ? null : integerOrText(v)) },
  { field: 'arn', key: 'arn', convert: orNull },
  { field: 'case_number', key: 'caseNumber', convert: orNull },
  { field: 'happened_at', key: 'happenedAt', convert: (v) => dateTime(v) },
  { field: 'resolution', key: 'resolution', convert: (v) => (v === 'null' ? null : v === 'none' ? '' : v) },
  { field: 'resolution_other_message', key: 'resolutionOtherMessage', convert: orNull },
  { field: 'metadata', key: 'metadata', object: 'nullable' },
];

export function register(disputes: Command, io: IO): void {
  addOperationCommand(disputes, io, {
    name: 'create',
    operation: 'disputes.create',
    description: 'Record a dispute (alert or chargeback); every field is optional',
    options: (command) => {
      command
        .addOption(new Option('--type <type>', 'kind of dispute').choices(DISPUTE_TYPES))
        .option('--amount <amount>', 'disputed amount, up to 6 digits and 2 decimals, or null')
        .option('--currency <code>', 'currency code, e.g. USD')
        .option('--transaction <id>', 'id of the disputed transaction (ties the dispute to its order)')
        .option('--arn <arn>', 'acquirer reference number')
        .option('--case-number <number>', "the card network's case number")
        .option('--happened-at <date>', 'when it happened: ISO 8601 date-time or plain date (UTC midnight)')
        .addOption(
          new Option('--resolution <resolution>', 'how it was resolved ("none" sends an empty resolution, "null" sends null)').choices([
            ...DISPUTE_RESOLUTIONS,
            'none',
            'null',
          ]),
        )
        .option('--resolution-other-message <text>', 'free-text resolution (with --resolution other)');
      objectOption(command, 'metadata', 'metadata object', true);
      dataOption(command);
    },
    body: (opts, ctx) => buildBody(opts, ctx, fields),
    view: 'dispute',
    progress: 'Recording the dispute…',
    examples: [
      'store-admin disputes create --type chargeback --transaction 502 --amount 84.00 --currency USD',
      'store-admin disputes create --type alert --case-number C-1234 --happened-at 2026-02-01',
    ],
  });
}
