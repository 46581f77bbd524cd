// What a record does not keep itself, derived when it is answered (render.ts): joins such as an
// order's `user`, and the fields only an older API version has.
import { fulfillmentDerivations } from './fulfillment-views.js';
import type { Records } from './kinds.js';
import type { Derivations } from './render.js';

export interface ViewContext {
  records: Records;
  version: string;
  origin: string;
}

export const derivations: Derivations<ViewContext> = { ...fulfillmentDerivations };
