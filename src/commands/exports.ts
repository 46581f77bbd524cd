// `store-admin exports …`
import { Option, type Command } from 'commander';
import { EXPORT_TYPES } from '../api/enums.js';
import type { IO } from '../io.js';
import { addOperationCommand } from './define.js';
import { dateTime } from './values.js';

export function register(exports: Command, io: IO): void {
  addOperationCommand(exports, io, {
    name: 'create',
    operation: 'exports.create',
    options: (command) =>
      command
        .addOption(new Option('--type <type>', 'what to export').choices(EXPORT_TYPES))
        .option('--from <date>', 'start: ISO 8601 date-time, or a plain date (00:00:00 UTC that day)')
        .option('--to <date>', 'end: ISO 8601 date-time, or a plain date (23:59:59 UTC that day, so the day is included)')
        .option('--download <file>', "save the export's file here once it has a URL"),
    flags: { type: '--type', date_from: '--from', date_to: '--to' },
    body: async (opts, ctx) => ({
      type: opts.type ?? (await ctx.prompt.select({ flag: '--type', message: 'What to export?', choices: EXPORT_TYPES })),
      date_from: dateTime(opts.from ?? (await ctx.prompt.text({ flag: '--from', message: 'From (YYYY-MM-DD or ISO date-time):' })), 'start'),
      date_to: dateTime(opts.to ?? (await ctx.prompt.text({ flag: '--to', message: 'To (YYYY-MM-DD or ISO date-time):' })), 'end'),
    }),
    view: 'dataExport',
    progress: 'Creating the export…',
    after: async (data, opts, ctx) => {
      if (opts.download === undefined) return;
      const { downloadExport } = await import('./download.js');
      await downloadExport(data, String(opts.download), ctx);
    },
    examples: [
      'store-admin exports create --type order_list --from 2026-01-01 --to 2026-01-31',
      'store-admin exports create --type customer_list --from 2026-01-01T00:00:00Z --to 2026-02-01T00:00:00Z --download customers.csv',
    ],
  });

  addOperationCommand(exports, io, {
    name: 'types',
    operation: 'exports.listTypes',
    view: 'exportTypes',
    progress: 'Fetching export types…',
    examples: ['store-admin exports types', "store-admin exports types --query 'types[].code'"],
  });
}
