// A sweep of hostile path values: every value either stays exactly one path segment (the URL
// parser gives it back unchanged) or is refused before anything is sent.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { fillPath } from '../../src/api/url.js';
import { useSandbox } from '../helpers.js';

const PIECES = [
  '.', '..', '/', '\\', '?', '#', '%', '%2e', '%2E', '%2f', '%00', ' ', '\t', '\n', '\r', '\u0000', '\u001b', '\u007f',
  '\u2028', 'é', '😀', 'a', '1', ';', '&', '=', '+', '@', ':', '[', ']', '~', '*', "'", '"', '<', '>', '{', '}',
];

/** Deterministic values: every piece alone, every pair, then seeded random runs of up to 6 pieces. */
function hostileValues(count: number): string[] {
  const values = new Set<string>(['', ...PIECES]);
  for (const a of PIECES) for (const b of PIECES) values.add(a + b);
  let seed = 13;
  // xorshift32: exact in 32-bit integers, so the sweep is the same on every run.
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  while (values.size < count) {
    let value = '';
    for (let n = 1 + Math.floor(random() * 6); n > 0; n--) value += PIECES[Math.floor(random() * PIECES.length)];
    values.add(value);
  }
  return [...values];
}

const VALUES = hostileValues(5000);
const refused = (value: string) => value === '' || value === '.' || value === '..';

describe('hostile path values', () => {
  it(`keeps each of ${VALUES.length} values one segment, or refuses it`, () => {
    let kept = 0;
    for (const value of VALUES) {
      if (refused(value)) {
        expect(() => fillPath('/orders/{number}/notes/', { number: value }), JSON.stringify(value)).toThrow(UsageError);
        continue;
      }
      const url = new URL(`https://shop.example.com/api/admin${fillPath('/orders/{number}/notes/', { number: value })}`);
      const segments = url.pathname.split('/');
      expect(segments, JSON.stringify(value)).toHaveLength(7);
      expect(decodeURIComponent(segments[4]!), JSON.stringify(value)).toBe(value);
      expect(url.search + url.hash).toBe('');
      kept++;
    }
    expect(kept).toBe(VALUES.length - 3);
  });

  describe('over HTTP', () => {
    const ctx = useSandbox();
    const SENT = VALUES.filter((value) => /^[^\uD800-\uDFFF]*$/.test(value)).slice(0, 400);

    it(`sends ${SENT.length} of them to the operation they name, or nothing`, async () => {
      const route = () => ctx.sandbox.counters.byOperation['ordersFulfillmentOrdersRetrieve']?.received ?? 0;
      let reached = 0;
      for (const value of SENT) {
        const before = { all: ctx.sandbox.counters.received, route: route() };
        const outcome = await ctx.client.orders.fulfillmentOrders({ params: { number: value } }).then(
          () => 'answered',
          (error: unknown) => error,
        );
        if (refused(value)) {
          expect(outcome, JSON.stringify(value)).toBeInstanceOf(UsageError);
          expect(ctx.sandbox.counters.received).toBe(before.all);
        } else {
          expect(route(), JSON.stringify(value)).toBe(before.route + 1);
          reached++;
        }
      }
      expect(reached).toBe(SENT.length - SENT.filter(refused).length);
    });
  });
});
