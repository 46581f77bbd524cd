// A field of the generated table (src/api/generated/<group>/fields.ts) as a declared Field: its
// flag, how typed text converts, its help and, where the body requires it, its prompt. Every
// query parameter and top-level body field of every operation becomes a flag this way; a command
// may refine any of them (src/commands/<group>.ts).
import type { FieldFact, FieldOptions, ScalarKind } from '../api/field-facts.js';
import type { Field } from './declare.js';

/** Where a field goes: a query parameter filters (or shapes) what is read, a body field is sent. */
export type FieldPart = 'query' | 'body';

const KINDS: Record<ScalarKind, Field['kind']> = {
  text: 'text',
  email: 'text',
  uri: 'text',
  uuid: 'text',
  // The schema checks a decimal's digits; the text is sent as typed.
  decimal: 'text',
  int: 'integer',
  number: 'number',
  bool: 'switch',
  date: 'day',
  datetime: 'date',
};

const ITEMS: Partial<Record<ScalarKind, Field['item']>> = { int: 'integer', number: 'number', date: 'day' };

/** What a kind of value is, in help: the schema adds its own limits when help is shown. */
const WHAT: Partial<Record<ScalarKind, string>> = { email: 'an email address', uri: 'a URL', uuid: 'a UUID', decimal: 'a decimal such as 12.50', int: 'a whole number', number: 'a number' };

export function fieldOf(fact: FieldFact, part: FieldPart): Field {
  const field = declared(fact, part);
  return fact[2]?.only ? { ...field, versions: fact[2].only } : field;
}

function declared([name, kind, options = {}]: FieldFact, part: FieldPart): Field {
  const words = name.replace(/_/g, ' ');
  const help = helpOf(words, kind, options, part);
  if (kind === 'json') return { key: name, kind: 'json', help, ...prompted(words, options, part) };
  const list = kind.endsWith('[]');
  const scalar = (list ? kind.slice(0, -2) : kind) as ScalarKind;
  const choices = options.values ? { choices: options.values } : {};
  if (list) {
    const item = ITEMS[scalar];
    return { key: name, kind: 'list', help, ...(item ? { item } : {}), ...choices };
  }
  if (scalar === 'bool') {
    return part === 'query'
      ? { key: name, kind: 'switch', sets: true, ...filterHelp(name) }
      : { key: name, kind: 'switch', sets: true, help: `${words}: true${options.default !== undefined ? ` (default ${String(options.default)})` : ''}`, negatedHelp: `${words}: false` };
  }
  return {
    key: name,
    kind: KINDS[scalar],
    help,
    // A filter's end (`date_placed_to`) covers the whole of its last day.
    ...(scalar === 'datetime' ? { edge: /_(to|before|max|until)$/.test(name) ? 'end' : 'start' } : {}),
    ...choices,
    ...prompted(words, options, part),
  };
}

/** A yes-or-no filter's two flags, in words: `--is-disputed` "only disputed ones", `--no-is-disputed` "only ones not disputed". */
function filterHelp(name: string): Pick<Field, 'help' | 'negatedHelp'> {
  const [, prefix, rest = name] = /^(is|has)_(.+)$/.exec(name) ?? [];
  const words = rest.replace(/_/g, ' ');
  if (prefix === 'is') return { help: `only ${words} ones`, negatedHelp: `only ones not ${words}` };
  if (prefix === 'has') return { help: `only ones with ${words}`, negatedHelp: `only ones without ${words}` };
  return { help: `only where ${words} is true`, negatedHelp: `only where ${words} is false` };
}

/** A body field the operation requires is asked for at a terminal, and named when missing elsewhere. */
function prompted(words: string, options: FieldOptions, part: FieldPart): Pick<Field, 'prompt'> {
  if (part !== 'body' || !options.required) return {};
  return { prompt: { message: `${words.charAt(0).toUpperCase()}${words.slice(1)}:` } };
}

function helpOf(words: string, kind: FieldFact[1], options: FieldOptions, part: FieldPart): string {
  const what = WHAT[kind.replace(/\[\]$/, '') as ScalarKind];
  const notes = [
    ...(what ? [kind.endsWith('[]') ? `each ${what}` : what] : []),
    ...(options.default !== undefined ? [`default ${String(options.default)}`] : []),
    ...(options.only ? [`API version ${options.only.join(' or ')} only`] : []),
    ...(part === 'body' && options.required ? ['required'] : []),
  ];
  return notes.length > 0 ? `${words}: ${notes.join('; ')}` : words;
}
