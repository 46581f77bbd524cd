// The platform reference's response schemas, kept as JSON Schema 2020-12 fixtures in
// test/fixtures/reference (one file per operation and version, over shared components; their
// header says what they were written from), compiled with ajv. Tests hold sandbox answers and
// webhook payloads to them.
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { OperationId } from '../src/api/operations.js';

const DIR = new URL('./fixtures/reference/', import.meta.url);
// A CommonJS module whose plugin is its `default` export.
const addFormats = addFormatsModule.default;

/** Compiles the fixtures once: `validatorFor(id, version)` is undefined when the reference has no such pair. */
export function referenceValidators() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const files = readdirSync(DIR).filter((name) => name.endsWith('.schema.json'));
  for (const name of files) ajv.addSchema(JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as object);
  const pairs = files.filter((name) => name !== 'components.schema.json').map((name) => name.replace(/\.schema\.json$/, ''));
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (id: string, version: string) => {
    const key = `${id}.${version}`;
    if (!pairs.includes(key)) return undefined;
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.getSchema(`https://store-admin.invalid/reference/${key}.schema.json`)!));
    return validate;
  };
  /** What the reference says is wrong with `body`, one line per complaint (empty when valid). */
  const problems = (id: OperationId, version: string, body: unknown): string[] => {
    const validate = validatorFor(id, version);
    if (!validate) return [`the reference has no ${id} at ${version}`];
    // 4.7: the reference declares one fulfillment order; the platform answers a list of them.
    const items = id === 'ordersFulfillmentOrdersRetrieve' && Array.isArray(body) ? body : [body];
    return items.flatMap((item) =>
      validate(item === undefined ? null : JSON.parse(JSON.stringify(item))) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(answer)'} ${e.message}${e.params && 'additionalProperty' in e.params ? `: ${String(e.params.additionalProperty)}` : ''}${e.params && 'allowedValues' in e.params ? ` (${JSON.stringify(e.params.allowedValues)}, got ${JSON.stringify(valueAt(item, e.instancePath))})` : ''}`),
    );
  };
  return { pairs, validatorFor, problems };
}

function valueAt(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], value);
}
