// What each customers operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/customers/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  usersList: 'List customers, filtered by email, name, phone, sign-up date and more',
  usersCreate: 'Create a customer, with addresses if given',
  usersRetrieve: 'Show a customer',
  usersUpdate: "Replace a customer's fields",
  usersPartialUpdate: 'Change some fields of a customer',
  usersAddressesList: "List a customer's addresses",
  usersAddressesCreate: 'Add an address to a customer',
  usersAddressesRetrieve: "Show one of a customer's addresses",
  usersAddressesUpdate: "Replace one of a customer's addresses",
  usersAddressesDestroy: "Delete one of a customer's addresses",
  usersNotesList: 'List the notes on a customer',
  usersNotesCreate: 'Add a note to a customer',
  usersOrdersRetrieve: "List a customer's orders",
  usersSubscriptionsRetrieve: "List a customer's subscriptions",
};
