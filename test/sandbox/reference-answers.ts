// The platform's published reference (../shared/reference beside the repository) compiled with ajv,
// for tests that hold the sandbox's answers to it: each operation's success answer and each
// webhook's `data`, per version. Read as the reference means it: `nullable: true` and a `oneOf`
// with a null branch allow null. An answer's object has no field its schema does not list or
// require (none may be invented); an event's data is the object as an answer shows it, and the
// payloads' copies of the answers' schemas leave some of those fields out.
import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

export const REFERENCE_DIR = new URL('../../../shared/reference/', import.meta.url);
export const REFERENCE_PRESENT = existsSync(new URL('admin-api-2024-04-01.json', REFERENCE_DIR));
export const VERSIONS = ['2024-04-01', '2023-02-10', 'unstable'] as const;

// A CommonJS module whose plugin is its `default` export.
const addFormats = addFormatsModule.default;

type Json = Record<string, unknown>;

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  responses?: Record<string, { schema?: Json } | null>;
}

export interface Reference {
  operations: ReferenceOperation[];
  webhooks: Record<string, { payload: Json & { properties: { data: Json } } }>;
  components: { schemas: Record<string, Json> };
}

export function readReference(version: string): Reference {
  return JSON.parse(readFileSync(new URL(`admin-api-${version}.json`, REFERENCE_DIR), 'utf8')) as Reference;
}

/** Validators for one version's answers and events, each schema compiled once, on first use. */
export function referenceValidators(version: string, reference = readReference(version)) {
  // Each schema is compiled once per file and run a few hundred times: compiling fast beats optimised code.
  const ajv = new Ajv2020({ allErrors: true, strict: false, code: { optimize: false } });
  addFormats(ajv);
  ajv.addFormat('decimal', /^-?\d*(\.\d+)?$/);
  const base = `https://reference.invalid/${version}.json`;
  ajv.addSchema({ $id: base, components: { schemas: readable(reference.components.schemas, base, true) } });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (key: string, schema: Json, closed: boolean) => {
    let validate = compiled.get(key);
    if (!validate) {
      const made = readable(schema, base, closed) as Json;
      // A bare reference is the component's own validator, compiled once for every answer naming it.
      const ref = Object.keys(made).length === 1 && typeof made.$ref === 'string' ? ajv.getSchema(made.$ref) : undefined;
      compiled.set(key, (validate = ref ?? ajv.compile(made)));
    }
    return validate;
  };
  return {
    /** The status the reference declares for the operation's success. */
    success(id: string): number | undefined {
      const status = Object.keys(reference.operations.find((op) => op.id === id)?.responses ?? {})[0];
      return status === undefined ? undefined : Number(status);
    },
    /** The success answer's validator of an operation, and the schema it was made from. */
    answer(id: string): { validate: ValidateFunction; schema: Json } | undefined {
      const operation = reference.operations.find((op) => op.id === id);
      const schema = Object.values(operation?.responses ?? {}).find((r) => r?.schema)?.schema;
      return schema && { validate: compile(`op:${id}`, schema, true), schema };
    },
    event(name: string): ValidateFunction | undefined {
      const data = reference.webhooks[name]?.payload.properties.data;
      return data && compile(`event:${name}`, data, false);
    },
    /** A whole delivery of the event: its envelope, and its data as event() reads it. */
    delivery(name: string): ValidateFunction | undefined {
      const payload = reference.webhooks[name]?.payload;
      return payload && compile(`delivery:${name}`, payload, false);
    },
  };
}

/** The complaints of a validator, one line each, naming the field. */
export function complaints(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => {
    const detail = e.params && 'additionalProperty' in e.params ? `: ${String(e.params.additionalProperty)}` : e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : '';
    return `${e.instancePath || '(answer)'} ${e.message ?? ''}${detail}`;
  });
}

/** A schema as ajv should read it: refs to the version's components, null where the reference allows it, and (`closed`) no unlisted field. */
function readable(schema: unknown, base: string, closed: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => readable(item, base, closed));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === 'nullable' || key.startsWith('x-')) continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as Json).map(([name, field]) => [name, readable(field, base, closed)])) : readable(value, base, closed);
  }
  if (typeof out.$ref === 'string' && out.$ref.startsWith('#/')) out.$ref = `${base}${encodeURI(out.$ref)}`;
  // OpenAPI's "X or null": as a oneOf, a null would match `{}` and the null branch both.
  if (Array.isArray(out.oneOf) && out.oneOf.some((branch) => (branch as Json).type === 'null')) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (closed && out.properties && out.additionalProperties === undefined) {
    // A field the reference requires without describing it (a product's `title`) is listed all the same.
    for (const name of (out.required ?? []) as string[]) (out.properties as Json)[name] ??= {};
    out.additionalProperties = false;
  }
  if ((schema as Json).nullable === true) return { anyOf: [out, { type: 'null' }] };
  return out;
}
