// What a single run and a bulk run share: arguments and flags made into validated input, errors
// that name the flag or argument at fault, the confirmation and the hints after an auth failure.
import { ApiError, UsageError, ValidationError } from '../api/errors.js';
import { operations, type OperationSchemas } from '../api/operations.js';
import { sealInput, validateInput } from '../api/validate.js';
import type { Context } from '../context.js';
import type { Grant } from '../connect.js';
import { missingScopes } from '../api/scopes.js';
import type { OperationCommand, Options } from './define.js';
import { attributeOf, flagOf, nearest } from './fields.js';

export interface Input {
  params: Record<string, unknown>;
  body: unknown;
}

export function commandName(spec: OperationCommand): string {
  const [group = ''] = spec.operation.split('.');
  return `${group.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${spec.name}`;
}

/** Positional values become path parameters: whole numbers for ids, text otherwise. */
export function paramsFrom(spec: OperationCommand, positional: string[]): Record<string, unknown> {
  const declared = operations[spec.operation].params as Readonly<Record<string, string>>;
  const params: Record<string, unknown> = {};
  for (const [index, [, param]] of (spec.args ?? []).entries()) {
    let value = positional[index] ?? '';
    // The dashboard shows order numbers as "#10001", and people copy them with the mark.
    if (param === 'number' && /^#\d+$/.test(value.trim())) value = value.trim().slice(1);
    params[param] = declared[param] === 'id' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  }
  return params;
}

/** Checks the input against the operation's schemas, naming flags and arguments in errors. */
export async function validated(spec: OperationCommand, input: Input, opts?: Options): Promise<Input> {
  return validatedWith(await operations[spec.operation].schemas(), spec, input, opts);
}

/** The same with the operation's schemas at hand: a bulk run checks thousands of lines without a pause between them. */
export function validatedWith(schemas: OperationSchemas, spec: OperationCommand, input: Input, opts?: Options): Input {
  try {
    // Sealed first, so that the check is remembered for the client's own.
    validateInput(operations[spec.operation], schemas, sealInput(input));
    return input;
  } catch (error) {
    if (error instanceof ValidationError) throw explain(error, spec, input, opts);
    throw error;
  }
}

export async function confirm(ctx: Context, message: string): Promise<void> {
  const confirmed = await ctx.prompt.confirm({
    message: `${message} Continue?`,
    refusal: `${message.replace(/[.?]$/, '')}: confirmation needed`,
  });
  if (!confirmed) throw new UsageError('Canceled; nothing was sent');
}

/** Names the flag or argument behind each bad field, with the value as typed and the nearest allowed one. */
function explain(error: ValidationError, spec: OperationCommand, input: Input, opts: Options = {}) {
  const parts = error.issues.map((issue) => {
    const [where, field, ...rest] = issue.path.split('.');
    let label = issue.path;
    let value: unknown;
    let suggestion: string | undefined;
    if (where === 'params' && field) {
      label = labelOf(spec, 'params', field);
      value = input.params[field];
    } else if (where === 'body' && field) {
      const declared = spec.fields?.find((f) => f.key === field);
      label = labelOf(spec, 'body', field);
      if (rest.length > 0) label = `${label} (${rest.join('.')})`;
      const typed = declared && rest.length === 0 ? opts[attributeOf(declared)] : undefined;
      value = typeof typed === 'string' ? typed : rest.length === 0 ? (input.body as Record<string, unknown> | undefined)?.[field] : undefined;
      const guess = declared?.choices && typeof value === 'string' ? nearest(value, declared.choices) : undefined;
      if (guess && guess !== value) suggestion = `did you mean ${guess}?`;
    } else if (where === 'body') {
      label = 'body';
    }
    const shown = value === undefined || typeof value === 'object' ? '' : ` (got ${JSON.stringify(value)})`;
    return `${label}: ${issue.message}${shown}${suggestion ? `; ${suggestion}` : ''}`;
  });
  return new UsageError(parts.join('; '));
}

/** How a person names a path parameter or body field: its argument (`<id>`) or flag (`--reason`). */
export function labelOf(spec: OperationCommand, part: 'params' | 'body', key: string): string {
  if (part === 'params') {
    const arg = spec.args?.find(([, param]) => param === key);
    return arg ? `<${arg[0]}>` : key;
  }
  const declared = spec.fields?.find((f) => f.key === key);
  return declared ? flagOf(declared) : `--${key.replace(/_/g, '-')}`;
}

/**
 * What to do about an authentication or permission failure. A 403 names the scopes the operation
 * needs and, for a partner app's login, whether its grant has them.
 */
export function addHint(error: ApiError, scopes: readonly string[], grant?: Grant) {
  if (error.status === 401) {
    error.hint = 'The store rejected the token: set STORE_ADMIN_TOKEN to a valid one, or run: store-admin auth login';
  } else if (error.status === 403) {
    const needs = scopes.length > 0 ? `This command needs a token with the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(' and ')}` : 'The token is not allowed to do this';
    if (!grant || scopes.length === 0) return void (error.hint = needs);
    const missing = missingScopes(grant.scopes, scopes);
    const granted = grant.scopes.length > 0 ? grant.scopes.join(' ') : 'no scope';
    error.hint =
      missing.length > 0
        ? `${needs}; the app login of profile "${grant.profile}" was granted ${granted}, without ${missing.join(' and ')}. ` +
          `Log in again and approve ${missing.length > 1 ? 'them' : 'it'}: store-admin auth login --app --client-id ${grant.clientId} --profile ${grant.profile}`
        : `${needs}; the app login of profile "${grant.profile}" was granted ${scopes.length > 1 ? 'them' : 'it'}, so the store refused for another reason (was the app's access changed?)`;
  }
}
