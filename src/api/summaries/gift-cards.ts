// What each gift-cards operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/gift-cards/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  giftCardsList: 'List gift cards, filtered by customer, status, currency, amount and date',
  giftCardsCreate: 'Issue a gift card, to a customer if given',
  giftCardsRetrieve: 'Show a gift card',
  giftCardsPartialUpdate: "Change a gift card's expiry date or customer",
  giftCardsDeactivate: 'Deactivate a gift card for good',
};
