// When an export wait polls and, in a log, when it says it is still waiting: the schedule played
// out over a simulated clock (each poll taking `requestMs`), as the loop in exports/wait.ts runs it.
import { describe, expect, it } from 'vitest';
import { lineDue, STILL_WAITING_MS } from '../../src/exports/wait.js';
import { nextPause } from '../../src/polling.js';

/** The times of the polls and of the "still waiting" lines for an export ready after `readyMs`. */
function play(readyMs: number, requestMs: number) {
  const polls: number[] = [];
  const lines = [0];
  for (let now = 0; ; ) {
    now += nextPause(now) + requestMs;
    polls.push(now);
    if (now >= readyMs) return { polls, lines, seenAt: now };
    if (lineDue(now, lines.at(-1)!)) lines.push(now);
  }
}

describe('the export wait schedule', () => {
  it('sees a 20 s export well before 30 s, and a short one at once', () => {
    expect(play(20_000, 100).seenAt).toBeLessThan(25_000);
    expect(play(3_000, 100).seenAt).toBeLessThanOrEqual(4_200);
  });

  it('is at most half as late again as the export took, and polls a long one every 30 s', () => {
    for (const ready of [5_000, 20_000, 45_000, 120_000]) expect(play(ready, 100).seenAt).toBeLessThanOrEqual(ready * 1.5 + 2_100);
    const hour = play(3_600_000, 100).polls;
    expect(hour.length).toBeLessThan(140);
    expect(hour.at(-1)! - hour.at(-2)!).toBe(30_100);
  });

  it('prints a line at least every 60 s in a log, even when each poll takes 2 s', () => {
    for (const requestMs of [10, 500, 2_000]) {
      const { lines } = play(900_000, requestMs);
      const gaps = lines.slice(1).map((at, i) => at - lines[i]!);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(STILL_WAITING_MS);
      // …and not every poll: about one a minute.
      expect(lines.length).toBeLessThan(900_000 / 30_000);
    }
  });
});
