// A person at a terminal, answering from a script, for the run's prompter seam (ContextOverrides):
// every question a command asks, and what its check said to each answer typed, is kept for the
// test to read. test/cli/prompts.test.ts drives the real prompts in a terminal.
import type { Prompter } from '../../src/prompt.js';

/**
 * One answer, in the order the questions come: text (or `{ tries }`, typed in turn until the
 * question's check accepts one), a choice's value, `{ ticked, others }` for a list of names
 * (`others` tried in turn as the free-text line), or true/false for a confirmation.
 */
export type Answer = string | boolean | { tries: string[] } | { ticked: string[]; others?: string[] };

export interface Question {
  kind: 'text' | 'secret' | 'select' | 'checkbox' | 'confirm';
  message: string;
  flag?: string;
  /** The choices as shown (select, checkbox). */
  choices?: string[];
  /** What the check said to each answer typed, in order: true when it accepted one. */
  verdicts: (string | true)[];
}

type Check = (answer: string) => string | true | Promise<string | true>;

export function scriptedPrompter(script: Answer[]): Prompter & { asked: Question[] } {
  const asked: Question[] = [];
  const next = (question: Question): Answer => {
    asked.push(question);
    if (script.length === 0) throw new Error(`Unexpected question: ${question.message}`);
    return script.shift()!;
  };
  const typed = async (question: Question, check?: Check): Promise<string> => {
    const answer = next(question);
    const tries = typeof answer === 'string' ? [answer] : typeof answer === 'object' && 'tries' in answer ? answer.tries : undefined;
    if (!tries) throw new Error(`The script answers "${question.message}" with ${JSON.stringify(answer)}, not text`);
    for (const attempt of tries) {
      const verdict = check ? await check(attempt) : true;
      question.verdicts.push(verdict);
      if (verdict === true) return attempt;
    }
    throw new Error(`No answer to "${question.message}" passed its check: ${question.verdicts.join('; ')}`);
  };
  return {
    asked,
    text: ({ flag, message, validate }) => typed({ kind: 'text', flag, message, verdicts: [] }, validate),
    secret: ({ flag, message }) => typed({ kind: 'secret', flag, message, verdicts: [] }),
    async select({ flag, message, choices }) {
      const question: Question = { kind: 'select', flag, message, choices: choices.map((c) => (typeof c === 'string' ? c : c.name)), verdicts: [] };
      const answer = next(question);
      const values = choices.map((c) => (typeof c === 'string' ? c : c.value));
      if (typeof answer !== 'string' || !values.includes(answer as never)) throw new Error(`"${answer}" is not a choice of "${message}": ${values.join(', ')}`);
      return answer as (typeof values)[number];
    },
    async checkbox({ flag, message, choices, validate }) {
      const question: Question = { kind: 'checkbox', flag, message, choices: [...choices], verdicts: [] };
      const answer = next(question);
      if (typeof answer !== 'object' || !('ticked' in answer)) throw new Error(`The script answers "${message}" with ${JSON.stringify(answer)}, not names`);
      // The free-text line is checked name by name, as the prompt does.
      const names = (line: string) => line.split(',').map((s) => s.trim()).filter(Boolean);
      for (const line of answer.others ?? ['']) {
        const verdict = names(line).map((name) => validate?.(name) ?? true).find((v) => v !== true) ?? true;
        question.verdicts.push(verdict);
        if (verdict === true) return [...answer.ticked, ...names(line)];
      }
      throw new Error(`No answer to "${message}" passed its check: ${question.verdicts.join('; ')}`);
    },
    async confirm({ message }) {
      const answer = next({ kind: 'confirm', message, verdicts: [] });
      if (typeof answer !== 'boolean') throw new Error(`The script answers "${message}" with ${JSON.stringify(answer)}, not yes or no`);
      return answer;
    },
  };
}
