// An app's settings: a free-form object the app keeps on the store, read, replaced, merged into or
// cleared. The app itself is the store's record of it (kind `apps`).
import type { OperationId } from '../../api/operations.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import type { Rec } from '../kinds.js';

function appOf(ctx: RuleContext): Rec {
  const app = ctx.state.records.apps[String(ctx.params.clientId)];
  if (!app) throw NOT_FOUND();
  return app;
}

const settingsOf = (app: Rec): Record<string, unknown> => (app.settings && typeof app.settings === 'object' ? (app.settings as Record<string, unknown>) : (app.settings = {}));

export const appRules: Partial<Record<OperationId, Rule>> = {
  appsSettingsRetrieve: (ctx) => settingsOf(appOf(ctx)),
  appsSettingsUpdate: (ctx) => {
    const app = appOf(ctx);
    app.settings = { ...ctx.body };
    app.updated_at = ctx.now;
    return app.settings;
  },
  appsSettingsPartialUpdate: (ctx) => {
    const app = appOf(ctx);
    Object.assign(settingsOf(app), ctx.body);
    app.updated_at = ctx.now;
    return app.settings;
  },
  appsSettingsDestroy: (ctx) => {
    const app = appOf(ctx);
    app.settings = {};
    app.updated_at = ctx.now;
    return undefined;
  },
};
