// Types of each operation's input and output, from the table. The generated schemas are checked
// at run time; at compile time an operation's path parameters are typed from its entry, and its
// query, body and answer are plain data.
import type { GeneratedTable } from './generated/index.js';
import type { OperationId } from './operations.js';

type ParamDecl<Id extends OperationId> = GeneratedTable[Id]['params'];

export type OperationParams<Id extends OperationId> = {
  -readonly [K in keyof ParamDecl<Id>]: ParamDecl<Id>[K] extends 'id' ? number : string;
};

/** Query parameters by name: text, numbers, booleans, or lists of them for the repeatable ones. */
export type OperationQuery = Record<string, unknown>;

export type OperationInput<Id extends OperationId> = (keyof ParamDecl<Id> extends never
  ? { params?: Record<string, never> }
  : { params: OperationParams<Id> }) & {
  query?: OperationQuery;
  body?: unknown;
};

/** What the store answers: checked against the reference's shape, tolerantly. */
export type OperationOutput<_Id extends OperationId = OperationId> = unknown;

/** An answer as the client returns it from a raw request (and gives its hooks). */
export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the text of any other body, or undefined when empty. */
  body: unknown;
}
