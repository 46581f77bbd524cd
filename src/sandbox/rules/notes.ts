// Notes on orders, customers and disputes: made by the app that calls, in the name of the store's
// admin. Their kinds keep them under their parent (kinds.ts); listing them is generic.
import { SANDBOX_APP } from '../settings.js';
import type { RuleContext } from '../engine.js';
import { NOT_FOUND } from '../collections.js';
import type { KindName, Rec } from '../kinds.js';

/** Who the sandbox's API acts as: the store's administrator. */
export const SANDBOX_AGENT = { email: 'admin@sandbox.example', first_name: 'Sandbox', id: 1, last_name: 'Admin' };

/**
 * A note on the parent the path names, kept as `kind` and answered; the parent's `updated` event
 * says it changed. Order notes date themselves `date_created`, the others `created_at`.
 */
export function addNote(ctx: RuleContext, parentKind: KindName, kind: KindName, link: string, event: string, dates: readonly [string, string]): unknown {
  const [param] = Object.keys(ctx.params);
  const parent = ctx.state.records[parentKind][String(ctx.params[param!])];
  if (!parent) throw NOT_FOUND();
  const id = ctx.next(kind);
  const note: Rec = { id, [link]: ctx.params[param!], app: { ...SANDBOX_APP }, author: { ...SANDBOX_AGENT }, message: ctx.body.message, [dates[0]]: ctx.now, [dates[1]]: ctx.now };
  ctx.state.records[kind][String(id)] = note;
  ctx.emit(event, parent);
  return ctx.answer(note);
}
