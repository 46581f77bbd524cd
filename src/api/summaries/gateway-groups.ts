// What each gateway-groups operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/gateway-groups/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  gatewayGroupsList: 'List the groups of payment gateways',
  gatewayGroupsRetrieve: 'Show a group of payment gateways',
};
