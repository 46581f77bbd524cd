// The nesting check every JSON answer passes before anything walks it: exact at the limit, and
// not fooled by many brackets side by side or inside strings.
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/api/json-depth.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('nestsDeeperThan', () => {
  it('is exact at the limit, for arrays and objects alike', () => {
    expect(nestsDeeperThan(nested(256), 256)).toBe(false);
    expect(nestsDeeperThan(nested(257), 256)).toBe(true);
    const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
    expect(nestsDeeperThan(objects(256), 256)).toBe(false);
    expect(nestsDeeperThan(objects(257), 256)).toBe(true);
    expect(nestsDeeperThan(nested(50_000), 256)).toBe(true);
  });

  it('counts depth, not brackets: many side by side, or inside strings, are shallow', () => {
    const wide = JSON.stringify(Array.from({ length: 1000 }, (_, id) => ({ id, tags: [] })));
    expect(nestsDeeperThan(wide, 256)).toBe(false);
    const quoted = JSON.stringify({ note: '['.repeat(1000), escaped: '\\"[[[' });
    expect(nestsDeeperThan(quoted, 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify([[{ a: ['[[[[[['] }]]), 3)).toBe(true);
  });

  it('takes text with no brackets at all', () => {
    expect(nestsDeeperThan('"text"', 0)).toBe(false);
    expect(nestsDeeperThan('', 0)).toBe(false);
  });
});
