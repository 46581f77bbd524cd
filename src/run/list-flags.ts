// The flags of a command that lists a page of records, declared once: src/commands/define.ts adds
// them to every such command, and src/run/list.ts reads them.
import { InvalidArgumentError } from 'commander';
import type { FlagTable } from '../options.js';

export const LIST_FLAGS = {
  all: { flags: '--all', help: 'follow the pages to the end, printing each record as it arrives' },
  limit: { flags: '--limit <n>', help: 'follow the pages until N records, then stop', parse: positiveCount },
  cursor: { flags: '--cursor <cursor>', help: "start at this page: the cursor a list's note gives for its next page" },
} as const satisfies FlagTable;

function positiveCount(text: string): number {
  if (!/^\d{1,9}$/.test(text.trim()) || Number(text) < 1) throw new InvalidArgumentError('takes a whole number from 1');
  return Number(text);
}
