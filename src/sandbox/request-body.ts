// A request's body as the platform's framework reads it: JSON, a URL-encoded form or a multipart
// form (the reference accepts all three on writes). Form values are text; each is read as the
// type the operation's body schema expects there (a number, true/false, a list from repeated
// fields), as the framework's serializers coerce them.
import type * as z from 'zod/mini';
import { nestsDeeperThan } from '../api/json-depth.js';
import { HttpError } from './http-error.js';

/** Deeper JSON is refused before it is parsed: validating it would exhaust the stack. */
const MAX_JSON_DEPTH = 256;

type Schema = z.ZodMiniType;
type Def = { type: string; innerType?: Schema; element?: Schema; shape?: Record<string, Schema> };

export function parseRequestBody(raw: string, contentType: string | undefined, schema: Schema | undefined): unknown {
  const type = (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
  if (raw.trim() === '' && type !== 'multipart/form-data') return undefined;
  if (type === 'application/json' || type.endsWith('+json')) return parseJson(raw);
  if (type === 'application/x-www-form-urlencoded') return fromForm([...new URLSearchParams(raw)], schema);
  if (type === 'multipart/form-data') return fromForm(multipartFields(raw, contentType!), schema);
  throw new HttpError(415, { detail: `Unsupported media type "${contentType}" in request.` });
}

function parseJson(raw: string): unknown {
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) throw new HttpError(400, { detail: `JSON parse error - nested deeper than ${MAX_JSON_DEPTH} levels.` });
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new HttpError(400, { detail: `JSON parse error - ${(error as Error).message}` });
  }
}

/** Form fields by name, each read as its schema expects; a field given twice is a list. */
function fromForm(pairs: readonly (readonly [string, string])[], schema: Schema | undefined): Record<string, unknown> {
  const shape = objectShape(schema);
  const body: Record<string, unknown> = {};
  for (const [name, text] of pairs) {
    const expected = shape?.[name];
    const list = expected && kindOf(expected) === 'array';
    const value = coerce(text, list ? (defOf(unwrapped(expected)).element as Schema) : expected);
    if (list) ((body[name] ??= []) as unknown[]).push(value);
    else body[name] = value;
  }
  return body;
}

function coerce(text: string, schema: Schema | undefined): unknown {
  switch (schema && kindOf(schema)) {
    case 'number':
    case 'int':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'boolean':
      return ['true', 'True', '1', 'on'].includes(text) ? true : ['false', 'False', '0', 'off'].includes(text) ? false : text;
    case 'object':
    case 'record':
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    default:
      return text === '' && schema && defOf(schema).type === 'nullable' ? null : text;
  }
}

/** The text fields of a multipart body (files are read as their text, as a small upload is). */
function multipartFields(raw: string, contentType: string): [string, string][] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) throw new HttpError(400, { detail: 'Multipart form parse error - Invalid boundary in multipart: None' });
  const fields: [string, string][] = [];
  for (const part of raw.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const name = /name="([^"]*)"/i.exec(part.slice(0, split))?.[1];
    if (name !== undefined) fields.push([name, part.slice(split + 4).replace(/\r\n$/, '')]);
  }
  return fields;
}

function defOf(schema: Schema): Def {
  return (schema as unknown as { def: Def }).def;
}

function unwrapped(schema: Schema): Schema {
  let at = schema;
  while (['optional', 'nullable'].includes(defOf(at).type)) at = defOf(at).innerType!;
  return at;
}

function kindOf(schema: Schema): string {
  const def = defOf(unwrapped(schema));
  return def.type === 'number' && (def as { format?: string }).format?.includes('int') ? 'int' : def.type;
}

function objectShape(schema: Schema | undefined): Record<string, Schema> | undefined {
  return schema ? defOf(unwrapped(schema)).shape : undefined;
}
