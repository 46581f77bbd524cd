// `store-admin exports …`: what the table's commands for exports need beyond their facts: the
// asynchronous flow (--wait, --download) of a new export and of its file.
import { EXPORT_TYPES } from '../api/enums.js';
import { UsageError } from '../api/errors.js';
import { checkWaitOptions, DEFAULT_TIMEOUT, settleExport, waitBeforeDownload } from '../exports/wait.js';
import { POLLING } from '../polling.js';
import { parseDuration } from './define.js';
import type { FlagTable } from '../options.js';
import type { BodyField } from '../run/spec.js';
import { refine } from './table-commands.js';

/** `--wait` and `--wait-timeout`, for `exports create` and `exports download`. */
const waitFlags = (wait: string) =>
  ({
    wait: { flags: '--wait', help: wait },
    waitTimeout: {
      flags: '--wait-timeout <duration>',
      help: `give up waiting after this long, exit 5 (90s, 10m, 1h; default ${DEFAULT_TIMEOUT})`,
      parse: parseDuration,
    },
  }) as const satisfies FlagTable;

/** The flags `exports create` gains for the asynchronous flow (exports/wait.ts does it). */
const createFlags = {
  ...waitFlags(`wait until the export is available (${POLLING})`),
  download: { flags: '--download <file>', help: "wait, then save the export's file here (- for stdout); implies --wait" },
  force: { flags: '--force', help: 'with --download: replace an existing file' },
} as const satisfies FlagTable;

/** The flags of `exports download`. */
const downloadFlags = {
  // Not --output: that global flag picks the output format (json or table).
  outputFile: { flags: '--output-file <file>', help: 'where to save the file, - for stdout (default: export-<id>.csv)' },
  force: { flags: '--force', help: 'replace an existing file' },
  ...waitFlags('wait until the export is available first (as exports create --wait does)'),
} as const satisfies FlagTable;

const createFields: readonly BodyField<'exportsCreate'>[] = [
  { key: 'type', help: 'what to export', choices: EXPORT_TYPES, prompt: { message: 'What to export?' } },
  { key: 'date_from', flag: 'from', kind: 'date', edge: 'start', help: 'start', prompt: { message: 'From (YYYY-MM-DD or ISO date-time):' } },
  { key: 'date_to', flag: 'to', kind: 'date', edge: 'end', help: 'end', prompt: { message: 'To (YYYY-MM-DD or ISO date-time):' } },
];

export const refinements = [
  refine({
    operation: 'exportsCreate',
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
  }),
  refine({
    operation: 'exportsRetrieve',
    args: [['id', 'id', 'the export id']],
    view: 'dataExport',
    progress: 'Fetching the export…',
    examples: ['store-admin exports get 42', "store-admin exports get 42 --query status"],
  }),
  refine({
    operation: 'exportsDownloadRetrieve',
    description: "Save an available export's file (from a temporary signed link, fetched with no token)",
    args: [['id', 'id', 'the export id']],
    flags: downloadFlags,
    view: 'exportLink',
    progress: 'Asking for the download link…',
    check: async (opts, input) => {
      if (opts.waitTimeout !== undefined && !opts.wait) throw new UsageError('--wait-timeout goes with --wait');
      const { checkTarget, outputOf } = await import('../exports/download.js');
      await checkTarget({ file: outputOf(opts, input.params.id), force: !!opts.force }, '--output-file');
    },
    before: waitBeforeDownload,
    settle: async (data, opts, ctx, input) => (await import('../exports/download.js')).saveDownload(data, opts, ctx, input.params.id),
    examples: [
      'store-admin exports download 42 --output-file orders.csv',
      'store-admin exports download 42 --wait --wait-timeout 20m --output-file orders.csv',
      'store-admin exports download 42 --output-file - | wc -l',
    ],
  }),
  refine({
    operation: 'exportsTypesRetrieve',
    view: 'exportTypes',
    progress: 'Fetching export types…',
    examples: ['store-admin exports types', "store-admin exports types --query 'types[].code'"],
  }),
];
