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
  text(ask: Ask & { validate?: (value: string) => string | true }): Promise<string>;
  select<T extends string>(ask: Ask & { choices: readonly T[] }): Promise<T>;
  /** Known choices to tick, plus free text for others. */
  checkbox(ask: Ask & { choices: readonly string[] }): Promise<string[]>;
  confirm(ask: { message: string; refusal: string }): Promise<boolean>;
  /** Masked input, for tokens. */
  secret(ask: Ask): Promise<string>;
}

export function createPrompter(io: IO, interactive: boolean): Prompter {
  const context = { input: io.stdin, output: io.stdout as NodeJS.WritableStream, clearPromptOnDone: false };
  const needs = (flag: string): never => {
    throw new UsageError(`Missing ${flag}`, { hint: interactive ? undefined : 'Prompts need a terminal; pass the value as a flag' });
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
    async text({ flag, message, validate }) {
      if (!interactive) return needs(flag);
      const { input } = await import('@inquirer/prompts');
      return guard(() => input({ message, required: true, validate: validate ?? (() => true) }, context));
    },
    async select({ flag, message, choices }) {
      if (!interactive) return needs(flag);
      const { select } = await import('@inquirer/prompts');
      return guard(() => select({ message, choices: choices.map((value) => ({ value })), pageSize: 10 }, context));
    },
    async checkbox({ flag, message, choices }) {
      if (!interactive) return needs(flag);
      const { checkbox, input } = await import('@inquirer/prompts');
      const ticked = await guard(() => checkbox({ message, choices: choices.map((value) => ({ value })), pageSize: 12 }, context));
      const others = await guard(() => input({ message: 'Other names, comma-separated (Enter for none):' }, context));
      const all = [...ticked, ...others.split(',').map((s) => s.trim()).filter(Boolean)];
      if (all.length === 0) throw new UsageError(`Pick at least one, or pass ${flag}`);
      return all;
    },
    async secret({ flag, message }) {
      if (!interactive) return needs(flag);
      const { password } = await import('@inquirer/prompts');
      return guard(() => password({ message, mask: '*', validate: (v) => (v.trim() ? true : 'Required') }, context));
    },
    async confirm({ message, refusal }) {
      if (!interactive) throw new UsageError(refusal, { hint: 'Pass --yes to confirm without a prompt' });
      const { confirm } = await import('@inquirer/prompts');
      return guard(() => confirm({ message, default: false }, context));
    },
  };
}
