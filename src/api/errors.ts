// Every failure the tool reports is one of these classes; each carries its exit code, and one
// handler in the CLI prints them.
import { excerpt } from '../printable.js';

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 4,
  timedOut: 5,
  interrupted: 130,
  /** Work stopped because stdout's reader went away (a pipe closed), as a process killed by SIGPIPE (128 + 13) reports. */
  closed: 141,
  /** Stopped by SIGTERM (128 + 15), as a process killed by it reports. */
  terminated: 143,
} as const;

export class StoreAdminError extends Error {
  // Spelled out: class names do not survive minification, and JSON errors report them.
  override name = 'StoreAdminError';
  readonly exitCode: number = EXIT.failure;
  /** A second line telling the user what to do next. */
  hint?: string;
  constructor(message: string, options?: { cause?: unknown; hint?: string }) {
    super(message, options);
    this.hint = options?.hint;
  }
}

/** Bad flags, arguments or input: nothing was sent. */
export class UsageError extends StoreAdminError {
  override name = 'UsageError';
  override readonly exitCode: number = EXIT.usage;
}

export interface FieldIssue {
  /** Where the problem is, key by key: `['body', 'shipping_price']`, `['params', 'id']`; empty for the whole input. */
  path: readonly (string | number)[];
  message: string;
}

/** A field's place as messages name it: `body.shipping_price`. */
export function dotted(path: FieldIssue['path']): string {
  return path.join('.');
}

/** Input that breaks the operation's schema, caught before any request leaves the process. */
export class ValidationError extends UsageError {
  override name = 'ValidationError';
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((issue) => `${dotted(issue.path)}: ${issue.message}`).join('; '));
  }
}

/** No token, or one the store rejects. */
export class AuthError extends StoreAdminError {
  override name = 'AuthError';
  override readonly exitCode: number = EXIT.auth;
}

/** The store answered with a non-2xx status. */
export class ApiError extends StoreAdminError {
  override name = 'ApiError';
  override readonly exitCode: number;
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
    readonly headers: Record<string, string | string[] | undefined> = {},
  ) {
    super(message);
    this.exitCode = status === 401 || status === 403 ? EXIT.auth : EXIT.failure;
  }
}

export type NetworkFailure = 'dns' | 'refused' | 'timeout' | 'reset' | 'tls' | 'redirect' | 'body' | 'other';

/** The store could not be reached, or its answer could not be read. */
export class NetworkError extends StoreAdminError {
  override name = 'NetworkError';
  /** False when the request provably never left: no connection was made. */
  readonly sent: boolean;
  /** A failure that may pass by itself (a DNS lookup that timed out). */
  readonly transient: boolean;
  /** The status line that arrived before the body broke off, if any. */
  readonly status?: number;
  constructor(
    readonly kind: NetworkFailure,
    message: string,
    options?: { cause?: unknown; hint?: string; sent?: boolean; transient?: boolean; status?: number },
  ) {
    super(message, options);
    this.sent = options?.sent ?? true;
    this.transient = options?.transient ?? false;
    this.status = options?.status;
  }
}

/** A change was sent but its answer never arrived: it may or may not have been applied. */
export class UnknownOutcomeError extends StoreAdminError {
  override name = 'UnknownOutcomeError';
}

/** Stopped by Ctrl-C (130); the CLI reports work stopped by SIGTERM as 143. */
export class InterruptedError extends StoreAdminError {
  override name = 'InterruptedError';
  override readonly exitCode: number = EXIT.interrupted;
}

/** A wait that gave up (`--wait-timeout`): what was waited for goes on, and can be finished later. */
export class TimedOutError extends StoreAdminError {
  override name = 'TimedOutError';
  override readonly exitCode: number = EXIT.timedOut;
}

/** Stopped while waiting for its turn: nothing was sent, so nothing can have changed. */
export class NotStartedError extends InterruptedError {
  override name = 'NotStartedError';
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusLine(status: number): string {
  return STATUS_TEXT[status] ? `${status} ${STATUS_TEXT[status]}` : String(status);
}

/**
 * One line from the platform's usual error bodies: `{detail}`, `{field: [messages]}` and
 * `non_field_errors`; anything else (an HTML page, an empty body) falls back to the status line.
 */
export function describeErrorBody(status: number, body: unknown): string {
  // A store's text is echoed on one line, cut short: an error page must not flood the terminal.
  return excerpt(errorText(status, body));
}

function errorText(status: number, body: unknown): string {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (typeof record.detail === 'string' && record.detail) return record.detail;
    const parts: string[] = [];
    for (const [field, value] of Object.entries(record)) {
      const messages = flattenMessages(value);
      if (messages.length === 0) continue;
      parts.push(field === 'non_field_errors' ? messages.join(' ') : `${field}: ${messages.join(' ')}`);
    }
    if (parts.length > 0) return parts.join('; ');
  }
  if (Array.isArray(body)) {
    const messages = flattenMessages(body);
    if (messages.length > 0) return messages.join(' ');
  }
  return statusLine(status);
}

function flattenMessages(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  // A list of several objects answers one per item sent ({} for those without errors): the item's
  // index names it, as in the client's own `lines.1.product_id`.
  if (Array.isArray(value) && value.length > 1 && value.some((item) => item && typeof item === 'object' && !Array.isArray(item))) {
    return value.flatMap((item, index) => flattenMessages(item).map((m) => `${index}: ${m}`));
  }
  if (Array.isArray(value)) return value.flatMap(flattenMessages);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => flattenMessages(inner).map((m) => `${key}: ${m}`));
  }
  return [];
}

/** Shorter strings are not treated as secrets: hiding them would garble ordinary words. */
export const SHORTEST_SECRET = 8;

/**
 * The error with `secret` (the token a client sent) written as `***` wherever a store put it back:
 * its message, hint, body and headers, and the stack a debug run prints. Errors leave the client
 * through here, so nothing that keeps or shows them (the history, a run journal, the screen) has it.
 */
export function withoutSecret<E>(error: E, secret: string | undefined): E {
  if (!secret || secret.length < SHORTEST_SECRET || !(error instanceof Error)) return error;
  const hide = (text: string) => text.split(secret).join('***');
  const deep = (value: unknown): unknown => {
    if (typeof value === 'string') return value.includes(secret) ? hide(value) : value;
    if (Array.isArray(value)) return value.map(deep);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [hide(key), deep(inner)]));
    return value;
  };
  error.message = hide(error.message);
  if (error.stack) error.stack = hide(error.stack);
  if (error instanceof StoreAdminError && error.hint) error.hint = hide(error.hint);
  if (error instanceof ApiError) Object.assign(error, { body: deep(error.body), headers: deep(error.headers) });
  return error;
}
