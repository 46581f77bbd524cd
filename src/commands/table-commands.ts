// The commands of one group of the operation table: one per operation, named by the table's
// `command` (`orders fulfillments events list`), with sub-groups for nested resources, an argument
// per path parameter, a flag per query parameter and top-level body field (src/fields/facts.ts),
// a confirmation for what cannot be undone, and examples. A group's module (src/commands/<group>.ts)
// refines the commands people use most (prompts, views, flags of their own, work after the answer)
// and adds the group's commands that are not one operation. Earlier names keep working, hidden.
import type { Command } from 'commander';
import type { OperationFields } from '../api/field-facts.js';
import { fieldsOf } from '../api/generated/index.js';
import { loadGroup, type GroupName, type Operation, type OperationId } from '../api/operations.js';
import type { Context } from '../context.js';
import { flagOf, type Field } from '../fields/declare.js';
import { fieldOf } from '../fields/facts.js';
import type { FlagTable } from '../options.js';
import type { OperationCommand } from '../run/spec.js';
import { confirmQuestion } from './confirm-text.js';
import { addOperationCommand } from './define.js';
import { pathPairs, singular, withArticle } from './nouns.js';

/** A hand-written refinement of an operation's command: what it says replaces what the table gives. */
export type CommandRefinement<Id extends OperationId = OperationId, Flags extends FlagTable = FlagTable> = Partial<Omit<OperationCommand<Id, Flags>, 'operation' | 'name'>> & {
  operation: Id;
};

/** A refinement checked against its own operation (its arguments, hooks and flags typed), kept for the group. */
export function refine<Id extends OperationId, Flags extends FlagTable = Record<never, never>>(refinement: CommandRefinement<Id, Flags>): CommandRefinement {
  return refinement as unknown as CommandRefinement;
}

/** What a group's own module gives: refinements of its commands, and commands that are not one operation. */
export interface GroupModule {
  refinements?: readonly CommandRefinement[];
  /**
   * Operations whose command is a job of the module's (`orders refund` calculates, shows and then
   * refunds): `register` declares it under the table's name, and the table's own is not made.
   */
  jobs?: readonly OperationId[];
  register?(group: Command, ctx: Context, table: GroupTable): void;
}

/** The group's part of the table, as its module's commands read it. */
export interface GroupTable {
  /** An operation's command as the table (and the group's refinement) gives it: its fields and query flags. */
  spec(id: OperationId): OperationCommand;
}

/** Loads a table group's part of the table, its fields and its module, and registers its commands. */
export async function tableGroup(name: GroupName, module?: () => Promise<GroupModule>) {
  const [ops, { fields }, own] = await Promise.all([loadGroup(name), fieldsOf[name](), module?.() ?? {}]);
  return { register: (group: Command, ctx: Context) => registerTableGroup(group, ctx, ops, fields, own) };
}

export function registerTableGroup(group: Command, ctx: Context, ops: readonly Operation[], fields: Readonly<Record<string, OperationFields>>, own: GroupModule): void {
  const refined = new Map((own.refinements ?? []).map((refinement) => [refinement.operation, refinement]));
  const specOf = (op: Operation) => commandSpec(op, fields[op.id] ?? {}, refined.get(op.id));
  for (const op of ops) {
    if (own.jobs?.includes(op.id)) continue;
    const words = op.command.split(' ').slice(1);
    const spec = specOf(op);
    addOperationCommand(subGroup(group, words.slice(0, -1)), ctx, spec);
    for (const alias of op.aliases) {
      const aliasWords = alias.split(' ').slice(1);
      addOperationCommand(subGroup(group, aliasWords.slice(0, -1)), ctx, { ...spec, name: aliasWords.at(-1)! }, { aliasOf: op.command });
    }
  }
  own.register?.(group, ctx, {
    spec: (id) => {
      const op = ops.find((candidate) => candidate.id === id);
      if (!op) throw new Error(`${id} is not an operation of ${group.name()}`);
      return specOf(op);
    },
  });
  describeSubGroups(group, ops);
}

/** The sub-group these words name under `group`, made on first use. */
function subGroup(group: Command, words: readonly string[]): Command {
  let parent = group;
  for (const word of words) parent = parent.commands.find((c) => c.name() === word) ?? parent.command(word);
  return parent;
}

/** `orders lines`: "Lines of an order: create, update, delete". */
function describeSubGroups(group: Command, ops: readonly Operation[]): void {
  const walk = (command: Command, depth: number) => {
    for (const sub of command.commands) {
      if (sub.commands.length === 0) continue;
      const op = ops.find((o) => o.command.split(' ')[depth] === sub.name());
      const pairs = op ? pathPairs(op.path) : [];
      const at = pairs.findIndex((pair) => pair.segment === sub.name() || singular(pair.segment) === singular(sub.name()));
      const owner = at > 0 ? withArticle(singular(pairs[at - 1]!.segment)) : undefined;
      const what = `${sub.name().charAt(0).toUpperCase()}${sub.name().slice(1).replace(/-/g, ' ')}`;
      const verbs = sub.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden).map((c) => c.name());
      sub.description(`${owner ? `${what} of ${owner}` : what}: ${verbs.join(', ')}`);
      walk(sub, depth + 1);
    }
  };
  walk(group, 1);
}

/** An operation's command as the table gives it, with the group's refinement (if any) over it. */
export function commandSpec(op: Operation, facts: OperationFields, refinement: CommandRefinement | undefined): OperationCommand {
  const version = (field: readonly [string, string, { only?: readonly string[] }?]) => !field[2]?.only || field[2].only.includes(op.version);
  // A field the default version lacks is still a flag (for --api-version), but never asked for.
  const body = (facts.body ?? []).map((fact) => (version(fact) ? fieldOf(fact, 'body') : { ...fieldOf(fact, 'body'), prompt: undefined }));
  const query = (facts.query ?? []).map((fact) => fieldOf(fact, 'query'));
  const args = argsOf(op);
  const generated: OperationCommand = {
    name: op.command.split(' ').at(-1)!,
    operation: op.id,
    args,
    ...(query.length > 0 ? { query } : {}),
    ...(body.length > 0 ? { fields: body, data: true } : {}),
    // A partial update that changes nothing is a mistake, not a request.
    ...(op.method === 'PATCH' && body.length > 0 ? { requireSome: 'at least one field flag, or fields in --data' } : {}),
    ...(op.irreversible ? { confirm: ({ params }) => confirmQuestion(op, params) } : {}),
    progress: op.method === 'GET' ? 'Fetching…' : 'Sending…',
    examples: examplesOf(op, args, body, query),
  };
  if (!refinement) return generated;
  const { operation: _, ...given } = refinement;
  return {
    ...generated,
    ...given,
    // A command with a body builder of its own (app settings' --set) takes no generated fields.
    ...(given.body ? { fields: given.fields, data: given.data ?? false } : { fields: merged(given.fields, generated.fields) }),
    query: merged(given.query, generated.query),
  } as OperationCommand;
}

/** The refinement's fields, then the table's that it does not replace. */
function merged(given: readonly Field[] | undefined, generated: readonly Field[] | undefined): readonly Field[] | undefined {
  if (!given) return generated;
  return [...given, ...(generated ?? []).filter((field) => !given.some((g) => g.key === field.key))];
}

/** An argument per path parameter, in path order, described by what it picks. */
function argsOf(op: Operation): [label: string, param: string, description: string][] {
  return pathPairs(op.path)
    .filter((pair) => pair.param !== undefined)
    .map(({ segment, param }) => {
      const label = param!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      const thing = singular(segment);
      const description =
        param === 'id' || param === 'number'
          ? `${thing} ${param}`
          : param === 'currency'
            ? 'currency code, e.g. USD'
            : param === 'clientId'
              ? "the app's client id"
              : label.replace(/-/g, ' ');
      return [label, param!, description];
    });
}

/** A value to show for a path parameter in examples. */
function exampleArg(param: string, index: number): string {
  if (param === 'number') return '10001';
  if (param === 'currency') return 'USD';
  if (param === 'clientId') return 'my-app';
  return String(index + 1);
}

/** A value a field takes, to show in examples. */
function exampleValue(field: Field): string {
  if (field.choices?.[0]) return field.choices[0];
  switch (field.kind) {
    case 'json':
    case 'object':
      return `@${field.key}.json`;
    case 'integer':
    case 'number':
      return '1';
    case 'date':
    case 'day':
      return '2026-03-01';
    default:
      return /email/.test(field.key) ? 'customer@example.com' : /url|uri|src|target|link/.test(field.key) ? 'https://example.com' : /price|amount|cost/.test(field.key) ? '10.00' : 'example';
  }
}

const flagWithValue = (field: Field) => `${flagOf(field)}${field.kind === 'switch' ? '' : ` ${exampleValue(field)}`}`;

/** Two or more command lines for help: the plain call, then one that shows what else it takes. */
function examplesOf(op: Operation, args: readonly [string, string, string][], body: readonly Field[], query: readonly Field[]): string[] {
  const line = (...parts: string[]) => ['store-admin', op.command, ...args.map(([, param], i) => exampleArg(param, i)), ...parts].join(' ');
  const required = body.filter((field) => field.prompt);
  if (op.answer === 'page') {
    const filter = query.find((field) => field.choices) ?? query[0];
    return [line(), line(...(filter ? [flagWithValue(filter)] : []), '--all', '-o', 'csv')];
  }
  if (op.method === 'GET') return [line(), line('--json')];
  if (op.method === 'DELETE') return [line(), line('--yes')];
  if (body.length === 0) return [line(), line('--json')];
  // The first runs as it is (what it requires, typed); the second shows the whole body from a file.
  const first = required.length > 0 ? line(...required.map(flagWithValue)) : op.method === 'PATCH' ? line(flagWithValue(body[0]!)) : line();
  return [first, line('--data', `@${singular(pathPairs(op.path).at(-1)!.segment).replace(/ /g, '-')}.json`)];
}
