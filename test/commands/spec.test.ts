// A command's spec is keyed by its operation and its own flags are declared as data. The type
// assertions here are checked by the typecheck (`npx tsc --noEmit`, part of every landing): a
// `@ts-expect-error` that stops failing fails it. Body keys are plain strings to the compiler;
// the walk below holds every command's fields to its operation's body fields instead.
import { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FieldFact } from '../../src/api/field-facts.js';
import { loadOperation, type Operation, type OperationId } from '../../src/api/operations.js';
import { commandTree } from '../../src/cli.js';
import { commandPath, leafCommands, metaOf } from '../../src/commands/meta.js';
import { addFlags, type FlagsOf, type FlagTable } from '../../src/options.js';
import { processIO } from '../../src/output/stream.js';
import type { CheckedInput, OperationCommand } from '../../src/run/spec.js';

/** The body fields the reference gives an operation: its group's generated facts (src/api/generated/<group>/fields.ts). */
async function bodyFieldsOf(op: Operation): Promise<string[]> {
  const { fields } = (await import(`../../src/api/generated/${op.group}/fields.ts`)) as { fields: Record<string, { body?: readonly FieldFact[] }> };
  return (fields[op.id]?.body ?? []).map(([name]) => name);
}

/** The declared keys that are no body field of the operation. */
async function strangers(id: OperationId, declared: readonly { key: string }[]): Promise<string[]> {
  const known = await bodyFieldsOf(await loadOperation(id));
  return declared.map((field) => field.key).filter((key) => !known.includes(key));
}

describe('a spec keyed by its operation', () => {
  it('names only the path parameters of its operation', () => {
    // @ts-expect-error the path of subscriptions cancel has no parameter ident
    const wrongArg: OperationCommand<'subscriptionsCancelCreate'>['args'] = [['id', 'ident', 'subscription id']];
    expect(wrongArg?.[0]?.[1]).toBe('ident');
  });

  it("every command's fields name body fields of its operation", async () => {
    const program = await commandTree(processIO());
    const declared = leafCommands(program).flatMap((command) => {
      const meta = metaOf(command);
      return meta?.operation && meta.fields ? [{ path: commandPath(command), operation: meta.operation, fields: meta.fields }] : [];
    });
    expect(declared.map(({ path }) => path)).toEqual(expect.arrayContaining(['store-admin subscriptions cancel', 'store-admin webhooks update']));
    for (const { path, operation, fields } of declared) expect(await strangers(operation, fields), path).toEqual([]);
  });

  it('the walk finds a misspelt key, and any field of an operation that takes no body', async () => {
    expect(await strangers('subscriptionsCancelCreate', [{ key: 'cancel_reason' }, { key: 'cancel_reasn' }])).toEqual(['cancel_reasn']);
    expect(await strangers('subscriptionsRenewCreate', [{ key: 'cancel_reason' }])).toEqual(['cancel_reason']);
  });

  it('gives its hooks the input typed as the operation takes it', () => {
    expectTypeOf<CheckedInput<'subscriptionsCancelCreate'>['params']>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<CheckedInput<'ordersNotesCreate'>['params']>().toEqualTypeOf<{ number: string }>();
    // A body is plain data to the compiler: its keys are held by the walk above.
    expectTypeOf<CheckedInput<'subscriptionsRenewCreate'>['body']>().toEqualTypeOf<Readonly<Record<string, unknown>>>();
    // The run layer reads every spec by the wide type: a spec for one operation is one of those.
    const spec: OperationCommand<'subscriptionsRenewCreate'> = {
      name: 'renew',
      operation: 'subscriptionsRenewCreate',
      args: [['id', 'id', 'subscription id']],
      confirm: ({ params }) => `Renew subscription ${params.id}?`,
      view: 'subscription',
      progress: 'Renewing…',
      examples: [],
    };
    // The compiler measures a spec's operation as invariant (its input type is conditional on it),
    // so the run layer takes a spec for one operation through refine(), as here.
    const wide = spec as unknown as OperationCommand;
    expect(wide.confirm?.({ params: { id: 2 }, body: undefined })).toBe('Renew subscription 2?');
  });
});

describe('a flag table', () => {
  const table = {
    waitTimeout: { flags: '--wait-timeout <seconds>', help: 'how long', parse: (text: string) => Number(text) },
    force: { flags: '--force', help: 'replace' },
    outputFile: { flags: '--output-file <file>', help: 'where' },
    resume: { flags: '--resume [run]', help: 'which run' },
  } as const satisfies FlagTable;

  it('is declared in its order, parsed by its parsers and read as a typed struct', () => {
    const command = addFlags(new Command().exitOverride(), table);
    command.parse(['--force', '--wait-timeout', '12', '--output-file', 'a.csv', '--resume'], { from: 'user' });
    const opts: FlagsOf<typeof table> = command.opts();
    expectTypeOf(opts.waitTimeout).toEqualTypeOf<number | undefined>();
    expectTypeOf(opts.force).toEqualTypeOf<true | undefined>();
    expectTypeOf(opts.outputFile).toEqualTypeOf<string | undefined>();
    expectTypeOf(opts.resume).toEqualTypeOf<string | true | undefined>();
    expect(opts).toEqual({ force: true, waitTimeout: 12, outputFile: 'a.csv', resume: true });
    expect(command.options.map((option) => option.long)).toEqual(['--wait-timeout', '--force', '--output-file', '--resume']);
  });

  it('refuses a name under which Commander would not put the value', () => {
    expect(() => addFlags(new Command(), { outFile: { flags: '--output-file <file>', help: 'where' } })).toThrow(
      '--output-file <file> is read as outputFile, not outFile',
    );
  });
});
