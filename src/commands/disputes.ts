// `store-admin disputes …`: what the table's commands for disputes need beyond their facts.
import { DISPUTE_RESOLUTIONS, DISPUTE_TYPES } from '../api/enums.js';
import type { BodyField } from '../run/spec.js';
import { refine } from './table-commands.js';

// Given no flags on a terminal, the command asks for the fields a dispute is usually recorded with.
const fields: readonly BodyField<'disputesCreate'>[] = [
  { key: 'type', help: 'kind of dispute', choices: DISPUTE_TYPES, prompt: { message: 'Kind of dispute:', when: 'bare' } },
  { key: 'amount', help: 'disputed amount', prompt: { message: 'Disputed amount (Enter to skip):', when: 'bare', optional: true } },
  { key: 'currency', help: 'currency code, e.g. USD', prompt: { message: 'Currency, e.g. USD (Enter to skip):', when: 'bare', optional: true } },
  {
    key: 'transaction',
    kind: 'integer',
    help: 'id of the disputed transaction (ties the dispute to its order)',
    prompt: { message: 'Transaction id (Enter to skip):', when: 'bare', optional: true },
  },
  { key: 'arn', help: 'acquirer reference number' },
  { key: 'case_number', help: "the card network's case number", prompt: { message: 'Case number (Enter to skip):', when: 'bare', optional: true } },
  { key: 'happened_at', kind: 'date', help: 'when it happened', prompt: { message: 'When it happened, YYYY-MM-DD (Enter to skip):', when: 'bare', optional: true } },
  {
    key: 'resolution',
    help: 'how it was resolved ("none" sends an empty resolution)',
    choices: DISPUTE_RESOLUTIONS,
    labels: { '3ds_authorized_successfully': '3-D Secure authorized successfully' },
    aliases: { none: '' },
  },
  {
    key: 'resolution_other_message',
    help: 'free-text resolution (with --resolution other)',
    prompt: { message: 'Explain the resolution:', when: (body) => body.resolution === 'other', optional: true },
  },
  { key: 'metadata', kind: 'object', help: 'metadata object' },
];

export const refinements = [
  refine({
    operation: 'disputesCreate',
    description: 'Record a dispute (alert or chargeback); every field is optional',
    fields,
    data: true,
    confirm: ({ body }) => {
      const { type, amount, currency, transaction } = body;
      const what = [amount !== undefined && amount !== null ? `of ${String(amount)}${currency ? ` ${String(currency)}` : ''}` : '', transaction ? `on transaction ${String(transaction)}` : '']
        .filter(Boolean)
        .join(' ');
      return { review: `Record ${type ? `a ${type}` : 'a dispute'}${what ? ` ${what}` : ''}?` };
    },
    view: 'dispute',
    progress: 'Recording the dispute…',
    examples: [
      'store-admin disputes create --type chargeback --transaction 502 --amount 84.00 --currency USD',
      'store-admin disputes create --type alert --case-number C-1234 --happened-at 2026-02-01',
    ],
  }),
  refine({ operation: 'disputesRetrieve', view: 'dispute' }),
];
