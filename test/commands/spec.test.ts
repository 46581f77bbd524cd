// A command's spec is keyed by its operation and its own flags are declared as data. The type
// assertions here are checked by the typecheck (`npx tsc --noEmit`, part of every landing): a
// `@ts-expect-error` that stops failing fails it.
import { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { addFlags, type FlagsOf, type FlagTable } from '../../src/options.js';
import type { BodyField, CheckedInput, OperationCommand } from '../../src/run/spec.js';

describe('a spec keyed by its operation', () => {
  it('names only the path parameters and body keys of its operation', () => {
    const field: BodyField<'subscriptionsCancelCreate'> = { key: 'cancel_reason', help: 'why it is canceled' };
    // @ts-expect-error subscriptions.cancel has no body key cancel_reasn
    const misspelt: BodyField<'subscriptionsCancelCreate'> = { key: 'cancel_reasn', help: 'why it is canceled' };
    // @ts-expect-error the path of subscriptions.cancel has no parameter ident
    const wrongArg: OperationCommand<'subscriptionsCancelCreate'>['args'] = [['id', 'ident', 'subscription id']];
    // @ts-expect-error subscriptions.renew takes no body, so no field fits it
    const noBody: BodyField<'subscriptionsRenewCreate'> = { key: 'cancel_reason', help: 'why' };
    expect([field.key, misspelt.key, wrongArg?.[0]?.[1], noBody.key]).toEqual(['cancel_reason', 'cancel_reasn', 'ident', 'cancel_reason']);
  });

  it('gives its hooks the input typed as the operation takes it', () => {
    expectTypeOf<CheckedInput<'subscriptionsCancelCreate'>['params']>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<CheckedInput<'ordersNotesCreate'>['params']>().toEqualTypeOf<{ number: string }>();
    expectTypeOf<CheckedInput<'subscriptionsRenewCreate'>['body']>().toEqualTypeOf<undefined>();
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
    const wide: OperationCommand = spec;
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
