// The dashboard's changes (dashboard-changes.ts) applied to the sandbox's state: a gateway built as
// the seed builds one, or changed; the store's details changed; an app removed with the tokens it
// was given. Each sends its event, its data the object as the Admin API answers it at each
// webhook's version, and answers with that object at the stable version.
import type * as z from 'zod/mini';
import { REFERENCE_VERSIONS } from '../api/operations.js';
import type { Answering } from './api-answer.js';
import { runtimeSeeding } from './builders.js';
import { clockNow } from './clock.js';
import { DASHBOARD_CHANGES, type DashboardChangeName } from './dashboard-changes.js';
import { drfErrors } from './drf-errors.js';
import { emitAbout } from './events.js';
import { HttpError, notFound } from './http-error.js';
import type { Rec } from './kinds.js';
import { buildGateway } from './seed/store-setup.js';
import type { SandboxState } from './state.js';

export interface DashboardParts {
  answering: Pick<Answering, 'eventData'>;
  /** Takes back the tokens an app was given when it signed in. */
  revokeApp(clientId: string): void;
}

export interface DashboardAnswer {
  event: string;
  /** The object changed, as the Admin API answers it. */
  object: unknown;
  /** How many deliveries the change queued. */
  queued: number;
}

type Body = Record<string, unknown>;

/** Applies change `name` to the record keyed `key` (none for the store), inside the caller's transaction. */
export function applyDashboardChange(state: SandboxState, parts: DashboardParts, name: DashboardChangeName, key: string, raw: unknown): DashboardAnswer {
  const change = DASHBOARD_CHANGES[name];
  const body = 'body' in change ? checked(change.body, raw) : {};
  const nowMs = clockNow(state);
  const record = APPLY[name](state, key, body, nowMs);
  // Rendered before an uninstalled app is forgotten: its event carries it as it was.
  const queued = emitAbout(state, change.event, record, parts.answering.eventData, nowMs);
  const object = parts.answering.eventData(state, change.event, REFERENCE_VERSIONS[0], structuredClone(record));
  if (name === 'uninstallApp') {
    delete state.records.apps[key];
    parts.revokeApp(key);
  }
  return { event: change.event, object, queued };
}

function checked(schema: z.ZodMiniType, raw: unknown): Body {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data as Body;
  const unknown = parsed.error.issues.find((issue) => issue.code === 'unrecognized_keys');
  // The dashboard has no such field: said, rather than ignored as the API's framework would.
  if (unknown) throw new HttpError(400, { non_field_errors: [`Unknown field: ${unknown.keys.join(', ')}.`] });
  throw new HttpError(400, drfErrors(parsed.error.issues, raw));
}

const APPLY: Record<DashboardChangeName, (state: SandboxState, key: string, body: Body, nowMs: number) => Rec> = {
  addGateway: (state, _key, { name, gateway_type, currencies, ...settings }, nowMs) =>
    buildGateway(runtimeSeeding(state, nowMs), { name: String(name), type: String(gateway_type) }, { ...settings, ...(currencies ? { currencies: storeCurrencies(state, currencies as string[]) } : {}) }),
  changeGateway: (state, key, { currencies, ...fields }) => {
    const gateway = state.records.gateways[key];
    if (!gateway) throw notFound(`Gateway ${key}`);
    return Object.assign(gateway, fields, currencies ? { currencies: storeCurrencies(state, currencies as string[]) } : {});
  },
  changeStore: (state, _key, { contact_address, ...fields }) => {
    const store = theStore(state);
    if (typeof fields.timezone === 'string' && !Intl.supportedValuesOf('timeZone').includes(fields.timezone) && fields.timezone !== 'UTC') {
      throw new HttpError(400, { timezone: [`"${fields.timezone}" is not a valid choice.`] });
    }
    return Object.assign(store, fields, contact_address ? { contact_address: { ...(store.contact_address as Rec), ...(contact_address as Rec) } } : {});
  },
  uninstallApp: (state, key) => {
    const app = state.records.apps[key];
    if (!app) throw notFound(`App ${key}`);
    return app;
  },
};

function theStore(state: SandboxState): Rec {
  return Object.values(state.records.store)[0]!;
}

/** The store's own currencies named by code; another is refused, as the store sells in no other. */
function storeCurrencies(state: SandboxState, codes: readonly string[]): Rec[] {
  const available = (theStore(state).available_currencies ?? []) as Rec[];
  const unknown = codes.filter((code) => !available.some((currency) => currency.code === code));
  if (unknown.length > 0) throw new HttpError(400, { currencies: [`"${unknown[0]}" is not one of the store's currencies (${available.map((c) => String(c.code)).join(', ')}).`] });
  return available.filter((currency) => codes.includes(String(currency.code)));
}
