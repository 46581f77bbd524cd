// The Commander options of a body field: its flag with a placeholder, a switch and its opposite,
// choices to show and complete, and --<flag>-file. The help says what the kind of value accepts;
// the schema's own limits join it later (constraints.ts), when help is shown.
import { Option, type Command } from 'commander';
import { flagOf, negatedFlagOf, type Field } from './declare.js';
import { collect } from './values.js';

/** Declares the options of every field (and --data where the body also takes JSON). */
export function addFieldOptions(command: Command, fields: readonly Field[]): void {
  for (const field of fields) {
    const flags = `${field.short ? `-${field.short}, ` : ''}${flagOf(field)}`;
    if (field.kind === 'switch') {
      command.addOption(new Option(flags, field.help));
      if (field.negatedHelp) command.addOption(new Option(negatedFlagOf(field), field.negatedHelp));
      continue;
    }
    const placeholder = PLACEHOLDERS[field.kind ?? 'text'] ?? (field.flag ?? field.key).split(/[-_]/).at(-1)!;
    const option = new Option(`${flags} <${placeholder}>`, helpWith(field, kindRules(field)));
    // Choices are shown and completed, but the schema checks them, so a bad one gets a suggestion.
    if (field.choices) option.choices([...field.choices, ...Object.keys(field.aliases ?? {})]);
    if (field.kind === 'list') option.argParser(collect);
    else option.argParser((value: string) => value);
    command.addOption(option);
    if (field.file) {
      const attribute = option.attributeName();
      command.addOption(new Option(`${flagOf(field)}-file <file>`, field.file).conflicts(attribute));
    }
  }
}

/** What a flag's value is called in help, where its kind says it better than its name. */
const PLACEHOLDERS: Partial<Record<NonNullable<Field['kind']>, string>> = { object: 'json', json: 'json', date: 'date', day: 'date' };

export const helpWith = (field: Field, rules: string[]) => (rules.length > 0 ? `${field.help} (${rules.join('; ')})` : field.help);

/** What the kind of value accepts, which the schema cannot say: it sees the converted value. */
export function kindRules(field: Field): string[] {
  switch (field.kind) {
    case 'date':
      return [`ISO 8601 date-time, or a plain date meaning ${field.edge === 'end' ? '23:59:59 UTC that day, so the day is included' : '00:00:00 UTC that day'}`];
    case 'day':
      return ['YYYY-MM-DD, or a date-time naming the day'];
    case 'object':
      return ['a JSON object or @file'];
    case 'json':
      return ['JSON or @file'];
    case 'list':
      return [...(field.item === 'day' ? ['YYYY-MM-DD'] : []), 'repeatable, or comma-separated'];
    default:
      return [];
  }
}
