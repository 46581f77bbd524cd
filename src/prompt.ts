// Prompts for values a person left out. Without a terminal (or with --no-input) every prompt
// becomes a usage error naming the flag to pass instead.
import { InterruptedError, UsageError } from './api/errors.js';
import type { IO } from './io.js';

interface Ask {
  /** The flag or argument that supplies this value without a prompt. */
  flag: string;
  message: string;
}

export interface Prompter {
  /** Asked again until `validate` passes; `optional` lets Enter answer with nothing. */
  text(ask: Ask & { validate?: (value: string) => string | true | Promise<string | true>; optional?: boolean }): Promise<string>;
  /** Choices are values, or values with the readable name shown for them. */
  select<T extends string>(ask: Ask & { choices: readonly (T | { value: T; name: string })[] }): Promise<T>;
  /** Known choices to tick, plus free text for others, each typed name asked again until `validate` passes. */
  checkbox(ask: Ask & { choices: readonly string[]; validate?: (name: string) => string | true }): Promise<string[]>;
  confirm(ask: { message: string; refusal: string }): Promise<boolean>;
  /** Masked input, for tokens and secrets. */
  secret(ask: Ask & { optional?: boolean }): Promise<string>;
}

export function createPrompter(io: IO, interactive: boolean): Prompter {
  const context = { input: io.stdin, output: io.stdout as NodeJS.WritableStream, clearPromptOnDone: false };
  const needs = (flag: string): never => {
    throw new UsageError(`Missing ${flag}`, { hint: 'Prompts are off here (no terminal, or --no-input): pass the value as a flag' });
  };
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Error && error.name === 'ExitPromptError') throw new InterruptedError('Interrupted; nothing was sent');
      throw error;
    }
  };
  return {
    async text({ flag, message, validate, optional }) {
      if (!interactive) return needs(flag);
      const { input } = await import('@inquirer/prompts');
      return guard(() => input({ message, required: !optional, validate: validate ?? (() => true) }, context));
    },
    async select({ flag, message, choices }) {
      if (!interactive) return needs(flag);
      const { select } = await import('@inquirer/prompts');
      const shown = choices.map((choice) => (typeof choice === 'string' ? { value: choice } : choice));
      return guard(() => select({ message, choices: shown, pageSize: 10 }, context));
    },
    async checkbox({ flag, message, choices, validate }) {
      if (!interactive) return needs(flag);
      const { checkbox, input } = await import('@inquirer/prompts');
      const split = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);
      const checkAll = (text: string) => split(text).map((name) => validate?.(name) ?? true).find((verdict) => verdict !== true) ?? true;
      // Nothing picked is no answer: asked again, as any other prompt asks again for a wrong one.
      for (;;) {
        const ticked = await guard(() => checkbox({ message, choices: choices.map((value) => ({ value })), pageSize: 12 }, context));
        const others = await guard(() => input({ message: 'Other names, comma-separated (Enter for none):', validate: checkAll }, context));
        const all = [...ticked, ...split(others)];
        if (all.length > 0) return all;
        context.output.write('Pick at least one: Space ticks the one under the cursor, or type a name after the list.\n');
      }
    },
    async secret({ flag, message, optional }) {
      if (!interactive) return needs(flag);
      const { password } = await import('@inquirer/prompts');
      return guard(() => password({ message, mask: '*', validate: (v) => (optional || v.trim() ? true : 'Required') }, context));
    },
    async confirm({ message, refusal }) {
      if (!interactive) throw new UsageError(refusal, { hint: 'Pass --yes to confirm without a prompt' });
      const { confirm } = await import('@inquirer/prompts');
      return guard(() => confirm({ message, default: false }, context));
    },
  };
}
