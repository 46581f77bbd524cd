// The README's retry schedule is rendered from the deliverer's constant. With
// STORE_ADMIN_WRITE_DOCS=1 this test rewrites the table; otherwise it fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { retryScheduleTable } from '../../src/docs/retry-schedule.js';

const README = new URL('../../README.md', import.meta.url);
const TABLE = /\| Attempt \| Waits after the failure before it \| Since the first try \|\n(\|.*\|\n)+/;

describe("the README's retry schedule", () => {
  it('is the table the code runs on', () => {
    const readme = readFileSync(README, 'utf8');
    const table = retryScheduleTable();
    if (process.env.STORE_ADMIN_WRITE_DOCS === '1') writeFileSync(README, readme.replace(TABLE, table));
    expect(readFileSync(README, 'utf8').match(TABLE)?.[0], 'README.md\'s retry schedule is stale: run npm run docs').toBe(table);
  });
});
