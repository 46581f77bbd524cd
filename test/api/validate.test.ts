// Checking an input once: a sealed input (frozen, parts and all) is checked against a schema only
// the first time, so the client does not repeat what a command checked and a bulk run checks its
// one body once; anything not sealed is checked every time.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { sealInput, validateInput } from '../../src/api/validate.js';
import { ValidationError } from '../../src/api/errors.js';

function counted() {
  const schema = z.object({ interval_count: z.number(), lines: z.optional(z.array(z.object({ id: z.number() }))) });
  let checks = 0;
  const safeParse = schema.safeParse.bind(schema);
  schema.safeParse = ((value: unknown) => {
    checks++;
    return safeParse(value);
  }) as typeof schema.safeParse;
  return { schemas: { body: schema, response: z.unknown() }, checks: () => checks };
}

const op = { params: { id: 'id' } } as const;

describe('validateInput', () => {
  it('checks a sealed body once however many inputs share it, and gives the same result each time', () => {
    const { schemas, checks } = counted();
    const body = { interval_count: 2, lines: [{ id: 7 }] };
    const inputs = [1, 2, 3].map((id) => sealInput({ params: { id }, body }));
    const results = inputs.map((input) => validateInput(op, schemas, input));
    expect(checks()).toBe(1);
    expect(results.map((r) => r.params)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    for (const r of results) expect(r.body).toEqual({ interval_count: 2, lines: [{ id: 7 }] });
    // Sealed means frozen all the way down: what was checked cannot change afterwards.
    expect(() => {
      (body.lines[0] as { id: number }).id = -1;
    }).toThrow(TypeError);
    expect(Object.isFrozen(inputs[0]!.params)).toBe(true);
  });

  it('checks what is not sealed every time, and a sealed input that failed fails again', () => {
    const { schemas, checks } = counted();
    const body = { interval_count: 2 };
    validateInput(op, schemas, { params: { id: 1 }, body });
    validateInput(op, schemas, { params: { id: 1 }, body });
    expect(checks()).toBe(2);
    const bad = sealInput({ params: { id: 1 }, body: { interval_count: 'two' } });
    expect(() => validateInput(op, schemas, bad)).toThrow(ValidationError);
    expect(() => validateInput(op, schemas, bad)).toThrow(/body\.interval_count/);
  });

  it('finds a sealed input that passed in one look, for the same schemas only, and nothing in it can be swapped', () => {
    const { schemas, checks } = counted();
    const input = sealInput({ params: { id: 4 }, body: { interval_count: 3 } });
    const first = validateInput(op, schemas, input);
    expect(validateInput(op, schemas, input)).toBe(first);
    expect(checks()).toBe(1);
    expect(() => {
      (input as { body: unknown }).body = { interval_count: 'x' };
    }).toThrow(TypeError);
    const other = counted();
    expect(validateInput(op, other.schemas, input)).not.toBe(first);
    expect(other.checks()).toBe(1);
  });

  it('checks a sealed input again for an operation with other parameters, even with the same schemas', () => {
    const { schemas } = counted();
    const input = sealInput({ params: { id: 4 }, body: { interval_count: 3 } });
    validateInput(op, schemas, input);
    expect(() => validateInput({ params: { number: 'string' } }, schemas, input)).toThrow(ValidationError);
  });

  it('freezes a part frozen only at the top all the way down', () => {
    const lines = [{ id: 7 }];
    const body = Object.freeze({ interval_count: 2, lines });
    sealInput({ params: { id: 1 }, body });
    expect(Object.isFrozen(lines)).toBe(true);
    expect(Object.isFrozen(lines[0])).toBe(true);
  });
});
