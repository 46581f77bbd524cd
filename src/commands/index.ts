// The command tree, as a list of groups. Each group module only declares its commands; the
// work behind them is imported when a command runs.
import type { Command } from 'commander';
import type { IO } from '../io.js';
import { registerApps } from './apps.js';
import { registerAuth } from './auth.js';
import { registerCategories } from './categories.js';
import { registerCustomers } from './customers.js';
import { registerDisputes } from './disputes.js';
import { registerExports } from './exports.js';
import { registerFulfillmentOrders } from './fulfillment-orders.js';
import { registerHelp } from './help.js';
import { registerOrders } from './orders.js';
import { registerSandbox } from './sandbox.js';
import { registerSubscriptions } from './subscriptions.js';
import { registerWebhooks } from './webhooks.js';

export type RegisterCommands = (program: Command, io: IO) => void;

export const commandGroups: RegisterCommands[] = [
  registerOrders,
  registerCustomers,
  registerSubscriptions,
  registerFulfillmentOrders,
  registerExports,
  registerDisputes,
  registerCategories,
  registerApps,
  registerWebhooks,
  registerAuth,
  registerSandbox,
  registerHelp,
];
