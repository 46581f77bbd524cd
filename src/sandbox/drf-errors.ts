// Validation errors in the platform's forms: its REST framework answers `{"field": ["message"]}`
// (nested objects nest, list items by index, `non_field_errors` for the whole body) in the
// framework's usual words, so a script that matches on them behaves here as on a store.
import type * as z from 'zod/mini';

type Issue = z.core.$ZodIssue;
type Errors = { [key: string]: string[] | Errors | Errors[] };

/** The framework's wording for a zod issue about `value`. */
function messageOf(issue: Issue, value: unknown): string {
  // A field not sent at all is missing, whatever it should have held (a choice, a type).
  if (value === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) return 'This field is required.';
  if (value === null && issue.code === 'invalid_type') return 'This field may not be null.';
  switch (issue.code) {
    case 'invalid_type':
      switch (issue.expected) {
        case 'int':
          return 'A valid integer is required.';
        case 'number':
          return 'A valid number is required.';
        case 'boolean':
          return 'Must be a valid boolean.';
        case 'string':
          return 'Not a valid string.';
        case 'array':
          return `Expected a list of items but got type "${typeName(value)}".`;
        case 'object':
        case 'record':
          return `Invalid data. Expected a dictionary, but got ${typeName(value)}.`;
        default:
          return 'Invalid input.';
      }
    case 'invalid_value':
      return `"${String(value)}" is not a valid choice.`;
    case 'too_small':
      if (issue.origin === 'string') return value === '' ? 'This field may not be blank.' : `Ensure this field has at least ${String(issue.minimum)} characters.`;
      if (issue.origin === 'array') return `Ensure this field has at least ${String(issue.minimum)} elements.`;
      return `Ensure this value is greater than or equal to ${String(issue.minimum)}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Ensure this field has no more than ${String(issue.maximum)} characters.`;
      if (issue.origin === 'array') return `Ensure this field has no more than ${String(issue.maximum)} elements.`;
      return `Ensure this value is less than or equal to ${String(issue.maximum)}.`;
    case 'invalid_format':
      switch (issue.format) {
        case 'email':
          return 'Enter a valid email address.';
        case 'url':
          return 'Enter a valid URL.';
        case 'uuid':
          return 'Must be a valid UUID.';
        case 'datetime':
          return 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';
        case 'date':
          return 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';
        case 'regex':
          return /decimal/.test(issue.message) ? 'A valid number is required.' : 'This value does not match the required pattern.';
        default:
          return 'Invalid input.';
      }
    default:
      return 'Invalid input.';
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return 'dict';
}

/** The error body for the issues found in `input`, keyed the way the framework keys them. */
export function drfErrors(issues: readonly Issue[], input: unknown): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') continue; // the framework ignores fields it does not know
    const path = issue.path.map(String);
    const message = messageOf(issue, valueAt(input, path));
    if (path.length === 0) {
      push(errors, 'non_field_errors', message);
      continue;
    }
    let at = errors;
    for (const key of path.slice(0, -1)) at = (at[key] && !Array.isArray(at[key]) ? at[key] : (at[key] = {})) as Errors;
    push(at, path.at(-1)!, message);
  }
  return listsOfObjects(errors, input);
}

/**
 * A list of objects (a nested serializer's many) answers a list as long as the one sent, `{}` for
 * each item without errors: `{"lines": [{}, {"product_id": [...]}]}`. A list of plain values keeps
 * its errors keyed by index, as the framework's ListField does: `{"events": {"1": [...]}}`.
 */
function listsOfObjects(errors: Errors, input: unknown): Errors {
  const out: Errors = {};
  for (const [key, found] of Object.entries(errors)) {
    const sent = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[key] : undefined;
    if (Array.isArray(found)) out[key] = found as string[];
    else if (Array.isArray(sent) && Object.values(found).every((item) => !Array.isArray(item))) {
      out[key] = sent.map((item, index) => listsOfObjects((found[String(index)] as Errors | undefined) ?? {}, item));
    } else out[key] = listsOfObjects(found, sent);
  }
  return out;
}

function push(errors: Errors, key: string, message: string): void {
  const list = Array.isArray(errors[key]) ? (errors[key] as string[]) : (errors[key] = []);
  if (!list.includes(message)) list.push(message);
}

function valueAt(input: unknown, path: readonly string[]): unknown {
  let at = input;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The issue is a field the body left out (the framework's "This field is required."). */
export function isMissing(issue: Issue, input: unknown): boolean {
  return issue.code === 'invalid_type' && valueAt(input, issue.path.map(String)) === undefined;
}

/** Whether a checked body has only fields the framework ignores wrong: unknown keys are dropped, not refused. */
export function onlyUnknownKeys(issues: readonly Issue[]): boolean {
  return issues.every((issue) => issue.code === 'unrecognized_keys');
}
