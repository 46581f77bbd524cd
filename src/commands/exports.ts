// `store-admin exports …`
import type { Command } from 'commander';
import { EXPORT_TYPES } from '../api/enums.js';
import type { IO } from '../io.js';
import { addOperationCommand } from './define.js';
import type { Field } from './fields.js';

const createFields: readonly Field[] = [
  { key: 'type', help: 'what to export', choices: EXPORT_TYPES, prompt: { message: 'What to export?' } },
  { key: 'date_from', flag: 'from', kind: 'date', edge: 'start', help: 'start', prompt: { message: 'From (YYYY-MM-DD or ISO date-time):' } },
  { key: 'date_to', flag: 'to', kind: 'date', edge: 'end', help: 'end', prompt: { message: 'To (YYYY-MM-DD or ISO date-time):' } },
];

export function register(exports: Command, io: IO): void {
  addOperationCommand(exports, io, {
    name: 'create',
    operation: 'exports.create',
    fields: createFields,
    options: (command) => command.option('--download <file>', "save the export's file here once it has a URL"),
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
