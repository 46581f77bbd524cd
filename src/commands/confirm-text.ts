// The question a command asks before a change that cannot be undone, made from its operation's
// path and the values given: "Cancel order 10001? This cannot be undone." A command that says more
// (the reason, who is notified) writes its own in src/commands/<group>.ts.
import type { Operation } from '../api/operations.js';
import { pathPairs, singular, withArticle } from './nouns.js';

/** Actions whose word, put before the object, would not read as English. */
const PHRASES: Readonly<Record<string, (object: string) => string>> = {
  'collect-payment': (object) => `Collect the outstanding balance of ${object}`,
  'mark-as-paid': (object) => `Mark ${object} as paid`,
  capture: (object) => `Capture the payment of ${object}`,
  retry: (object) => `Retry the payment of ${object}`,
  move: (object) => `Move ${object} to another location`,
};

export function confirmQuestion(op: Pick<Operation, 'method' | 'path' | 'command'>, params: Readonly<Record<string, unknown>>): string {
  const pairs = pathPairs(op.path);
  const lastNamed = pairs.findLastIndex((pair) => pair.param !== undefined);
  // The thing the path names, innermost first: `line 2 of order 10001`.
  const object = pairs
    .slice(0, lastNamed + 1)
    .filter((pair) => pair.param !== undefined)
    .reverse()
    .map((pair) => `${singular(pair.segment)} ${String(params[pair.param!])}`)
    .join(' of ');
  const after = pairs.slice(lastNamed + 1).map((pair) => pair.segment);
  return `${sentence(op, object, after)}? This cannot be undone.`;
}

function sentence(op: Pick<Operation, 'method' | 'command'>, object: string, after: string[]): string {
  const words = (segment: string) => segment.replace(/-/g, ' ');
  const capital = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  if (op.method === 'DELETE') return after.length === 0 ? `Delete ${object}` : `Delete the ${words(after.join(' '))} of ${object}`;
  if (op.command.endsWith(' create') && after.length === 1) return `Create ${withArticle(singular(after[0]!))} for ${object}`;
  if (after.length === 0) return `${capital(words(op.command.split(' ').at(-1)!))} ${object}`;
  const action = after.at(-1)!;
  if (after.length > 1) return `${capital(words(action))} the ${words(after.slice(0, -1).join(' '))} of ${object}`;
  return PHRASES[action]?.(object) ?? `${capital(words(action))} ${object}`;
}
