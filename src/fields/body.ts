// A command's body from its fields: --data, then each field's flag (or --<flag>-file) converted,
// switches and their opposites settled, then prompts at a terminal for what is still missing.
import { Option } from 'commander';
import type { ZodMiniType } from 'zod/mini';
import { UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import { isNullable, shapeOf } from './constraints.js';
import { checkedItems, convert, convertList, withoutProtoKeys } from './convert.js';
import { attributeOf, flagOf, negatedFlagOf, type Field, type FlagValues } from './declare.js';
import { ask, missingError, wanted } from './prompt.js';
import { BadValue, jsonObject, secretFrom } from './values.js';

/**
 * The body from --data (when declared) and the fields' flags, flags winning; then, on a terminal,
 * prompts for what is missing. Without one, every missing field is named in one error.
 */
export async function fieldBody(
  fields: readonly Field[],
  opts: FlagValues,
  ctx: Context,
  body: ZodMiniType | undefined,
): Promise<Record<string, unknown>> {
  const shape = shapeOf(body) ?? {};
  const result: Record<string, unknown> = opts.data === undefined ? {} : { ...withoutProtoKeys(await jsonObject(String(opts.data), '--data', ctx.io), '--data', ctx) };
  let given = opts.data !== undefined;
  for (const field of fields) {
    const attribute = attributeOf(field);
    if (field.kind === 'switch') {
      const value = opts[attribute];
      // `--no-x` alone defaults to true, so only `false` means it was typed.
      const typed = flagOf(field).startsWith('--no-') ? value === false : value !== undefined;
      const opposite = field.negatedFlag !== undefined && opts[new Option(negatedFlagOf(field)).attributeName()] !== undefined;
      if (typed && opposite) throw new UsageError(`${flagOf(field)} and ${negatedFlagOf(field)} contradict each other`);
      if (opposite) {
        result[field.key] = false;
        given = true;
      } else if (typed) {
        result[field.key] = field.negatedHelp && value === false ? false : field.sets;
        given = true;
      } else if (field.otherwise !== undefined) result[field.key] ??= field.otherwise;
      continue;
    }
    let typed = opts[attribute] as string | string[] | undefined;
    let flag = flagOf(field);
    if (field.file && opts[`${attribute}File`] !== undefined) {
      flag = `${flagOf(field)}-file`;
      typed = await secretFrom(String(opts[`${attribute}File`]), flag, ctx.io);
    }
    if (typed === undefined) continue;
    given = true;
    try {
      result[field.key] =
        field.kind === 'list'
          ? checkedItems(field, (typed as string[]).flatMap((item) => convertList(item)), opts)
          : await convert(field, String(typed), ctx, isNullable(shape[field.key]));
    } catch (error) {
      // A date's reason and a list item's check name the value themselves.
      if (error instanceof BadValue) throw new UsageError(`${flag}: ${error.message}${field.kind === 'date' || field.kind === 'day' || field.kind === 'list' ? '' : ` (got ${JSON.stringify(typed)})`}`);
      throw error;
    }
  }
  const asked = fields.filter((field) => field.prompt && result[field.key] === undefined && wanted(field.prompt, result, given));
  if (!ctx.interactive) {
    const missing = asked.filter((field) => !field.prompt!.optional && field.prompt!.when !== 'bare');
    if (missing.length > 0) throw missingError(missing.map(flagOf), ctx);
    return result;
  }
  let prompted = false;
  for (const field of fields) {
    // Asked in declaration order, and re-checked: an answer can make a later question relevant.
    if (!field.prompt || result[field.key] !== undefined || !wanted(field.prompt, result, given)) continue;
    if (typeof field.prompt.when === 'function' && !prompted) continue;
    prompted = true;
    const value = await ask(field, ctx, shape[field.key], opts);
    if (value !== undefined) result[field.key] = value;
  }
  return result;
}
