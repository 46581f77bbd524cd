// A JSON text that does not parse is reported by where it breaks, never by what it says: the text
// may be a file of secrets (`--data @token-file`, `--metadata @/etc/shadow`, the config file).
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/api/json-syntax.js';

const problem = (text: string) => {
  try {
    parseJson(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('it parsed');
};

describe('bad JSON', () => {
  it('is placed by line and column, with nothing of the text in the message', () => {
    expect(problem('root:*:20250:0:99999:7:::')).toBe('not valid JSON (line 1, column 1)');
    expect(problem('{\n  "token": tok_live_abcdef\n}')).toBe('not valid JSON (line 2, column 12)');
    expect(problem('{"a":1,}')).toBe('not valid JSON (line 1, column 8)');
    expect(problem('[1 2]')).toBe('not valid JSON (line 1, column 4)');
    expect(problem('{"a":1}x')).toBe('not valid JSON (line 1, column 8)');
    expect(problem('{"a":\n')).toBe('not valid JSON (it ends early, at line 2, column 1)');
    expect(problem(' \n')).toBe('not valid JSON (it is empty)');
    expect(problem('NaN')).toBe('not valid JSON');
    // A parser's own stack is no reason to say more.
    expect(problem(`${'['.repeat(100_000)}x`)).toBe('not valid JSON');
  });

  it('parses good JSON as JSON.parse does', () => {
    expect(parseJson('{"a":[1,"x",null]}')).toEqual({ a: [1, 'x', null] });
  });
});
