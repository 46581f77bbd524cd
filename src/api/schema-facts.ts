// The shape of a generated schema entry (src/api/generated/schemas/): an operation's zod schemas
// per API version, built on first use. A version whose schemas are the same as another's names it.
import type { ZodMiniType } from 'zod/mini';

export interface VersionSchemas {
  query?: ZodMiniType;
  body?: ZodMiniType;
  response: ZodMiniType;
}

export type VersionedSchemas = Record<string, (() => VersionSchemas) | string>;
