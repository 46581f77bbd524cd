// What bodies share beyond their fields: the whole body as JSON with --data, and the rule that a
// partial update must change something.
import type { Command } from 'commander';
import { UsageError } from '../api/errors.js';

export function dataOption(command: Command): void {
  command.option('--data <json>', 'body fields as JSON, @file or - (stdin); flags override them');
}

export function requireSomething(body: Record<string, unknown>, what: string, dataGiven: boolean): Record<string, unknown> {
  if (Object.keys(body).length > 0) return body;
  throw new UsageError(dataGiven ? `Nothing to change: --data has no fields; pass ${what}` : `Nothing to change: pass ${what}`);
}
