// Exports as the platform's guide describes them: created `pending`, `available` after a delay
// counted on the sandbox's clock (scheduler.ts turns them), their file reached through a temporary
// signed link. An export's `url` is its own URL in the API, not a file.
import { EXPORT_TYPES } from '../../api/enums.js';
import type { OperationId } from '../../api/operations.js';
import { API_PREFIX } from '../../api/url.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';

/** The export as the API answers it, its `url` its own. */
function present(ctx: RuleContext, record: Rec): Rec {
  return { ...record, url: `${ctx.origin}${API_PREFIX}/exports/${String(record.id)}/` };
}

function findExport(ctx: RuleContext): Rec {
  const found = ctx.state.records.exports[String(ctx.params.id)];
  if (!found) throw NOT_FOUND();
  return found;
}

/** The names of the export types, from their codes: `order_list` is "Order list". */
function typeName(code: string): string {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const exportRules: Partial<Record<OperationId, Rule>> = {
  exportsCreate: (ctx) => {
    if (Date.parse(ctx.body.date_from) > Date.parse(ctx.body.date_to)) {
      throw new HttpError(400, { non_field_errors: ['date_from must not be after date_to.'] });
    }
    const id = ctx.next('exports');
    const record: Rec = { id, created_at: ctx.now, date_from: ctx.body.date_from, date_to: ctx.body.date_to, type: ctx.body.type, status: 'pending' };
    ctx.state.records.exports[String(id)] = record;
    // A zero delay still answers `pending` first, as the platform always does.
    ctx.state.exportsReadyAt[String(id)] = ctx.nowMs + ctx.exportDelayMs;
    return ctx.answer(present(ctx, record));
  },
  exportsRetrieve: (ctx) => ctx.answer(present(ctx, findExport(ctx))),
  exportsList: (ctx) => {
    const all = (Object.values(ctx.state.records.exports) as Rec[]).map((record) => present(ctx, record));
    return ctx.list(all.filter((record) => (ctx.query.type === undefined || record.type === ctx.query.type) && withinDays(record.created_at, ctx.query)));
  },
  exportsDownloadRetrieve: (ctx) => {
    const found = findExport(ctx);
    if (found.status !== 'available') {
      throw new HttpError(400, { detail: `Export ${ctx.params.id} is still ${String(found.status)}; its file can be downloaded once its status is "available".` });
    }
    return ctx.answer({ url: ctx.signExportLink(Number(found.id)) });
  },
  exportsTypesRetrieve: (ctx) => {
    return ctx.answer({ types: EXPORT_TYPES.map((code) => ({ code, name: typeName(code) })) });
  },
};

function withinDays(created: unknown, query: Record<string, unknown>): boolean {
  const day = String(created).slice(0, 10);
  return (query.date_created_from === undefined || day >= String(query.date_created_from)) && (query.date_created_to === undefined || day <= String(query.date_created_to));
}
