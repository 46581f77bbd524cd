// The client's methods by command: `store.orders.fulfillments.list({ params: { number } })` calls
// the operation that `store-admin orders fulfillments list` runs. The words come from the table
// (dashes read as camelCase: `orders refund-calculate` is `store.orders.refundCalculate`), and the
// earlier names (`store.orders.removeLine`) keep working; no method is written per operation.
import type { GeneratedTable } from './generated/index.js';
import { groupNames, loadGroup, type GroupName, type OperationId } from './operations.js';
import type { refinements } from './refinements.js';
import type { OperationInput, OperationOutput } from './types.js';

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type Words<S extends string> = S extends `${infer Head} ${infer Tail}` ? [Camel<Head>, ...Words<Tail>] : [Camel<S>];
type Nest<W extends string[], F> = W extends [infer Head extends string, ...infer Rest extends string[]] ? { [K in Head]: Rest extends [] ? F : Nest<Rest, F> } : never;
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

type Method<Id extends OperationId, Options> = (input: OperationInput<Id>, options?: Options) => Promise<OperationOutput<Id>>;
type Aliases = { [Id in keyof typeof refinements]: (typeof refinements)[Id] extends { aliases: readonly (infer A extends string)[] } ? A : never };

/** Every operation by its command's words, and by its earlier names. */
export type Grouped<Options> = Intersect<
  | { [Id in OperationId]: Nest<Words<GeneratedTable[Id]['command']>, Method<Id, Options>> }[OperationId]
  | { [Id in keyof Aliases]: Nest<Words<Aliases[Id]>, Method<Id, Options>> }[keyof Aliases]
>;

const camel = (word: string) => word.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const groupByName = new Map<string, GroupName>(groupNames.map((group) => [camel(group), group]));

/** The operation whose command (or earlier name) reads as these words, loading its group. */
async function operationOf(words: readonly string[]): Promise<OperationId> {
  const group = groupByName.get(words[0]!)!;
  const typed = words.join(' ');
  for (const op of await loadGroup(group)) {
    for (const name of [op.command, ...op.aliases]) if (name.split(' ').map(camel).join(' ') === typed) return op.id;
  }
  throw new TypeError(`No operation is called ${words.join('.')}`);
}

/**
 * The grouped methods over `call`: a group's property is a namespace, and calling a path of
 * words calls the operation it names (an error for words that name none).
 */
export function grouped<Options>(call: (id: OperationId, input: never, options?: Options) => Promise<unknown>): Record<string, unknown> {
  const level = (words: readonly string[]): unknown =>
    new Proxy(() => undefined, {
      get: (_target, key) => (typeof key === 'string' && key !== 'then' ? level([...words, key]) : undefined),
      apply: async (_target, _this, [input, options]: [never, Options | undefined]) => call(await operationOf(words), input, options),
    });
  return Object.fromEntries([...groupByName.keys()].map((name) => [name, level([name])]));
}
