// What each transactions operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/transactions/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  transactionsList: 'List payment transactions, filtered by type, status, card, amount and date',
  transactionsRetrieve: 'Show a payment transaction',
  transactionsCaptureCreate: 'Capture an authorized transaction, in full or in part',
  transactionsRefundCreate: 'Refund a transaction, in full or in part',
  transactionsVerifyCreate: 'Verify a card without charging it',
};
