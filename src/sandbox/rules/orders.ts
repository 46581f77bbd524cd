// Orders: notes on an order or a customer. Lines, payments and refunds have modules of their own.
import type { OperationId } from '../../api/operations.js';
import type { Rule } from '../engine.js';
import { addNote } from './notes.js';

export const orderRules: Partial<Record<OperationId, Rule>> = {
  ordersNotesCreate: (ctx) => addNote(ctx, 'orders', 'orderNotes', 'order_number', 'order.updated', ['date_created', 'date_updated']),
  usersNotesCreate: (ctx) => addNote(ctx, 'users', 'userNotes', 'user_id', 'customer.updated', ['created_at', 'updated_at']),
  disputesNotesCreate: (ctx) => addNote(ctx, 'disputes', 'disputeNotes', 'dispute_id', 'dispute.updated', ['created_at', 'updated_at']),
};
