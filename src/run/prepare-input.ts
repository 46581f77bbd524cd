// What a single run and a bulk run share: positional arguments (asked for at a terminal when
// missing) and flags made into validated input, and errors that name the flag or argument at fault.
import { dotted, UsageError, ValidationError } from '../api/errors.js';
import { operation, type ParamKind } from '../api/operations.js';
import { prepareCallWith, type PreparedCall } from '../api/prepare.js';
import { paramsSchema } from '../api/validate.js';
import type { Context } from '../context.js';
import type { RunFlags } from './bulk/flags.js';
import { attributeOf, flagOf } from '../fields/declare.js';
import { nearest } from '../fields/nearest.js';
import { missingError, missingFlags } from '../fields/prompt.js';
import type { Input, OperationCommand } from './spec.js';

/** An input that passed its check, with the call prepared from it: the client sends that call as it is. */
export interface Checked extends Input {
  call: PreparedCall;
}

/** Prepares one operation's call from an input (a bulk run keeps one for all its lines). */
export type Preparer = (input: Input) => PreparedCall;

/** Positional values become path parameters: whole numbers for ids, text otherwise. */
export function paramsFrom(spec: OperationCommand, positional: string[]): Record<string, unknown> {
  const declared = operation(spec.operation).params as Readonly<Record<string, string>>;
  const params: Record<string, unknown> = {};
  for (const [index, [, param]] of (spec.args ?? []).entries()) {
    let value = positional[index] ?? '';
    // The dashboard shows order numbers as "#10001", and people copy them with the mark.
    if (param === 'number' && /^#\d+$/.test(value.trim())) value = value.trim().slice(1);
    params[param] = declared[param] === 'id' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  }
  return params;
}

/** Checks the input against the operation's schemas by preparing its call, naming flags and arguments in errors. */
export async function validated(spec: OperationCommand, ctx: Context, input: Input, opts?: RunFlags): Promise<Checked> {
  const op = operation(spec.operation);
  const version = ctx.options.apiVersion ?? op.version;
  const schemas = await op.schemas(version);
  return validatedWith((given) => prepareCallWith(op, version, schemas, given as never), spec, input, opts);
}

/** The same through a preparer at hand: a bulk run checks thousands of lines without a pause between them. */
export function validatedWith(prepare: Preparer, spec: OperationCommand, input: Input, opts?: RunFlags): Checked {
  try {
    return { ...input, call: prepare(input) };
  } catch (error) {
    if (error instanceof ValidationError) throw explain(error, spec, input, opts);
    throw error;
  }
}

/** Names the flag or argument behind each bad field, with the value as typed and the nearest allowed one. */
function explain(error: ValidationError, spec: OperationCommand, input: Input, opts: RunFlags = {}) {
  const parts = error.issues.flatMap((issue) => {
    const [where, field, ...rest] = issue.path.map(String);
    const unknown = /^unknown fields?: (.*)$/.exec(issue.message);
    if ((where === 'body' || where === 'query') && !field && unknown) return unknown[1]!.split(', ').map((key) => unknownField(spec, where, key));
    let label = dotted(issue.path);
    let value: unknown;
    let suggestion: string | undefined;
    if (where === 'params' && field) {
      label = labelOf(spec, 'params', field);
      value = input.params[field];
    } else if ((where === 'body' || where === 'query') && field) {
      const declared = (where === 'body' ? spec.fields : spec.query)?.find((f) => f.key === field);
      const given = (where === 'body' ? input.body : input.query) as Record<string, unknown> | undefined;
      label = labelOf(spec, where, field);
      // An item of a list is named by its value: `--status: "opn" is not …`, not by its index.
      const item = declared?.kind === 'list' && rest.length === 1 && /^\d+$/.test(rest[0]!) ? (given?.[field] as unknown[] | undefined)?.[Number(rest[0])] : undefined;
      if (rest.length > 0 && item === undefined) label = `${label} (${rest.join('.')})`;
      const typed = declared && rest.length === 0 && declared.kind !== 'list' ? opts[attributeOf(declared)] : undefined;
      value = item ?? (typeof typed === 'string' ? typed : rest.length === 0 ? given?.[field] : undefined);
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

/** A field the operation does not take at this version: one a flag gives belongs to another version; any other came with --data. */
function unknownField(spec: OperationCommand, part: 'query' | 'body', key: string): string {
  const declared = (part === 'body' ? spec.fields : spec.query)?.find((f) => f.key === key);
  if (declared?.versions) return `${flagOf(declared)}: only in API version ${declared.versions.join(' or ')} (pass --api-version ${declared.versions[0]})`;
  return `${part === 'body' ? '--data' : labelOf(spec, part, key)}: ${JSON.stringify(key)} is not a field of this operation`;
}

/** How a person names a path parameter, query parameter or body field: its argument (`<id>`) or flag (`--reason`). */
export function labelOf(spec: OperationCommand, part: 'params' | 'query' | 'body', key: string): string {
  if (part === 'params') {
    const arg = spec.args?.find(([, param]) => param === key);
    return arg ? `<${arg[0]}>` : key;
  }
  const declared = (part === 'body' ? spec.fields : spec.query)?.find((f) => f.key === key);
  return declared ? flagOf(declared) : `--${key.replace(/_/g, '-')}`;
}

/**
 * Missing arguments are asked for on a terminal, each checked as its path parameter is. Without
 * one, the error names every missing argument and any missing field flag together.
 */
export async function askArguments(spec: OperationCommand, ctx: Context, given: string[], opts: RunFlags): Promise<string[]> {
  const args = spec.args ?? [];
  const missing = args.slice(given.length);
  if (!ctx.interactive) {
    // Fields --data may hold are checked once the body is read, not named here.
    throw missingError([...missing.map(([label]) => `<${label}>`), ...(opts.data === undefined ? missingFlags(spec.fields ?? [], opts) : [])], ctx);
  }
  const op = operation(spec.operation);
  const values = [...given];
  for (const [label, param, description] of missing) {
    const schema = paramsSchema({ [param]: op.params[param as keyof typeof op.params] } as Record<string, ParamKind>);
    values.push(
      await ctx.prompt.text({
        flag: `<${label}>`,
        message: `${description.charAt(0).toUpperCase()}${description.slice(1)}:`,
        validate: (answer) => {
          const result = schema.safeParse(paramsFrom({ ...spec, args: [[label, param, description]] }, [answer]));
          return result.success ? true : (result.error.issues[0]?.message ?? 'is not valid');
        },
      }),
    );
  }
  return values;
}

