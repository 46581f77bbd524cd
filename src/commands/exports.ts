// `store-admin exports …`
import type { Command } from 'commander';
import { EXPORT_TYPES } from '../api/enums.js';
import { UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import { addOperationCommand } from './define.js';
import { checkWaitOptions, createFlags, downloadFlags, settleExport, waitBeforeDownload } from './export-wait.js';
import type { BodyField } from '../run/spec.js';

const createFields: readonly BodyField<'exports.create'>[] = [
  { key: 'type', help: 'what to export', choices: EXPORT_TYPES, prompt: { message: 'What to export?' } },
  { key: 'date_from', flag: 'from', kind: 'date', edge: 'start', help: 'start', prompt: { message: 'From (YYYY-MM-DD or ISO date-time):' } },
  { key: 'date_to', flag: 'to', kind: 'date', edge: 'end', help: 'end', prompt: { message: 'To (YYYY-MM-DD or ISO date-time):' } },
];

export function register(exports: Command, ctx: Context): void {
  addOperationCommand(exports, ctx, {
    name: 'create',
    operation: 'exports.create',
    fields: createFields,
    flags: createFlags,
    view: 'dataExport',
    progress: 'Creating the export…',
    check: checkWaitOptions,
    settle: settleExport,
    // Created and left pending: the command that waits for it and saves it.
    note: (data, opts) => {
      const { id, status } = (data ?? {}) as { id?: unknown; status?: unknown };
      if (opts.wait || opts.download !== undefined || typeof id !== 'number' || status === 'available') return undefined;
      return `Export ${id} is ${typeof status === 'string' ? status : 'created'}; save it once it is available with: store-admin exports download ${id} --wait`;
    },
    examples: [
      'store-admin exports create --type order_list --from 2026-01-01 --to 2026-01-31',
      'store-admin exports create --type customer_list --from 2026-01-01T00:00:00Z --to 2026-02-01T00:00:00Z --download customers.csv',
      'store-admin exports create --type order_list --from 2026-01-01 --to 2026-01-31 --download - | gzip > orders.csv.gz',
    ],
  });

  addOperationCommand(exports, ctx, {
    name: 'get',
    operation: 'exports.get',
    args: [['id', 'id', 'the export id']],
    view: 'dataExport',
    progress: 'Fetching the export…',
    examples: ['store-admin exports get 42', "store-admin exports get 42 --query status"],
  });

  addOperationCommand(exports, ctx, {
    name: 'download',
    operation: 'exports.download',
    description: "Save an available export's file (from a temporary signed link, fetched with no token)",
    args: [['id', 'id', 'the export id']],
    flags: downloadFlags,
    view: 'exportLink',
    progress: 'Asking for the download link…',
    check: async (opts, input) => {
      if (opts.waitTimeout !== undefined && !opts.wait) throw new UsageError('--wait-timeout goes with --wait');
      const { checkTarget, outputOf } = await import('./export-download.js');
      await checkTarget({ file: outputOf(opts, input.params.id), force: !!opts.force }, '--output-file');
    },
    before: waitBeforeDownload,
    settle: async (data, opts, ctx, input) => (await import('./export-download.js')).saveDownload(data, opts, ctx, input.params.id),
    examples: [
      'store-admin exports download 42 --output-file orders.csv',
      'store-admin exports download 42 --wait --wait-timeout 20m --output-file orders.csv',
      'store-admin exports download 42 --output-file - | wc -l',
    ],
  });

  addOperationCommand(exports, ctx, {
    name: 'types',
    operation: 'exports.listTypes',
    view: 'exportTypes',
    progress: 'Fetching export types…',
    examples: ['store-admin exports types', "store-admin exports types --query 'types[].code'"],
  });
}
