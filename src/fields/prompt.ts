// Asking for a field at a terminal: a picker for choices, a checklist for lists, text (or a
// masked secret) checked with the field's own schema and asked again on a bad answer. Without a
// terminal nothing is asked: every missing value is named in one error instead.
import type { ZodMiniType } from 'zod/mini';
import { UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import { isNullable } from './constraints.js';
import { convert } from './convert.js';
import { attributeOf, flagOf, labelOf, type Field, type FieldPrompt, type FlagValues } from './declare.js';
import { BadValue } from './values.js';

/** Flags of fields that must be given (or prompted for) and were not typed. */
export function missingFlags(fields: readonly Field[], opts: FlagValues): string[] {
  return fields
    .filter((field) => field.prompt && !field.prompt.optional && (field.prompt.when ?? 'missing') === 'missing')
    .filter((field) => opts[attributeOf(field)] === undefined && (!field.file || opts[`${attributeOf(field)}File`] === undefined))
    .map(flagOf);
}

/** Whether a field's prompt applies, given the body so far and whether any field was given. */
export function wanted(prompt: FieldPrompt, body: Record<string, unknown>, given: boolean): boolean {
  if (prompt.when === 'bare') return !given;
  if (typeof prompt.when === 'function') return prompt.when(body);
  return true;
}

/** One error naming everything missing, flags and arguments alike. */
export function missingError(names: string[], ctx: Context): UsageError {
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  const hint =
    ctx.options.input === false
      ? 'Prompts are off (--no-input): pass the values on the command line'
      : 'Prompts need a terminal: pass the values on the command line';
  return new UsageError(`Missing ${list}`, { hint });
}

/** Prompts for one field until the answer passes the field's own schema. */
export async function ask(field: Field, ctx: Context, schema: ZodMiniType | undefined, opts: FlagValues): Promise<unknown> {
  const { prompt } = field;
  const flag = flagOf(field);
  const nullable = isNullable(schema);
  if (field.choices && field.kind !== 'list') {
    const choices = field.choices.map((value) => ({ value, name: labelOf(field, value) }));
    const skip = prompt!.optional ? [{ value: '', name: '(leave empty)' }] : [];
    const picked = await ctx.prompt.select({ flag, message: prompt!.message, choices: [...choices, ...skip] });
    return picked === '' ? undefined : picked;
  }
  if (field.kind === 'list') {
    const validate = field.checkItem && ((item: string) => field.checkItem!(item, opts) ?? true);
    return ctx.prompt.checkbox({ flag, message: prompt!.message, choices: field.suggestions ?? field.choices ?? [], ...(validate ? { validate } : {}) });
  }
  const check = async (answer: string): Promise<string | true> => {
    if (!answer.trim() && prompt!.optional) return true;
    try {
      const value = await convert(field, answer, ctx, nullable);
      const result = schema?.safeParse(value);
      if (!result || result.success) return true;
      const { toFieldIssues } = await import('../api/validate.js');
      return toFieldIssues('', result.error.issues, value)[0]?.message ?? 'is not valid';
    } catch (error) {
      if (error instanceof BadValue || error instanceof UsageError) return error.message;
      throw error;
    }
  };
  const answer = prompt!.masked
    ? await ctx.prompt.secret({ flag, message: prompt!.message, optional: prompt!.optional })
    : await ctx.prompt.text({ flag, message: prompt!.message, optional: prompt!.optional, validate: check });
  if (!answer.trim() && prompt!.optional) return undefined;
  // A masked answer is checked after it is typed; a bad one is refused like a bad flag.
  const verdict = await check(answer);
  if (verdict !== true) throw new UsageError(`${flag}: ${verdict}`);
  return convert(field, answer, ctx, nullable);
}
