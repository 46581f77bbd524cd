// Types of each operation's input and output, derived from the table and its zod schemas.
import type * as z from 'zod/mini';
import type { OperationId, Operations } from './operations.js';

type Schemas<Id extends OperationId> = Awaited<ReturnType<Operations[Id]['schemas']>>;
type ParamDecl<Id extends OperationId> = Operations[Id]['params'];

export type OperationParams<Id extends OperationId> = {
  [K in keyof ParamDecl<Id>]: ParamDecl<Id>[K] extends 'id' ? number : string;
};

export type OperationBody<Id extends OperationId> =
  Schemas<Id> extends { body: infer B extends z.ZodMiniType } ? z.input<B> : never;

export type OperationQuery<Id extends OperationId> =
  Schemas<Id> extends { query: infer Q extends z.ZodMiniType } ? z.input<Q> : never;

export type OperationInput<Id extends OperationId> = (keyof ParamDecl<Id> extends never
  ? { params?: Record<string, never> }
  : { params: OperationParams<Id> }) &
  ([OperationBody<Id>] extends [never] ? { body?: undefined } : { body: OperationBody<Id> }) &
  ([OperationQuery<Id>] extends [never] ? { query?: undefined } : { query?: OperationQuery<Id> });

export type OperationOutput<Id extends OperationId> = z.output<Schemas<Id>['response']>;

/** An answer as the client returns it from a raw request (and gives its hooks). */
export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the text of any other body, or undefined when empty. */
  body: unknown;
}

/** The query after validation, as a server sees it. */
export type OperationParsedQuery<Id extends OperationId> =
  Schemas<Id> extends { query: infer Q extends z.ZodMiniType } ? z.output<Q> : never;

/** The body after validation (defaults applied), as a server sees it. */
export type OperationParsedBody<Id extends OperationId> =
  Schemas<Id> extends { body: infer B extends z.ZodMiniType } ? z.output<B> : never;
