// A bulk run whose answers are lost: lines that may have been applied are named, never offered
// for a re-run in --failed, while lines the store refused are.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from '../cli/run.js';

const lines = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);

describe('--each with --failed when answers are lost', () => {
  const store = memoryStore();
  // Every connection is dropped after the handler ran: each change that was accepted is applied,
  // and its answer never arrives. Refused lines (404) are answered before that point.
  const ctx = useSandbox({ store, faults: parseFaults('reset-after=1', 1) });
  const dir = useConfigDir();

  it('keeps unknown-outcome lines out of --failed, names them, and lists only refused lines there', async () => {
    const failed = join(dir, 'failed.txt');
    const notesBefore = (number: string) => Object.values(store.state.records.orderNotes).filter((note) => note.order_number === number).length;
    const before = { '10001': notesBefore('10001'), '10003': notesBefore('10003') };
    const r = await runCli(['orders', 'add-note', '--each', '-', '--message', 'Packed twice?', '--failed', failed, '--concurrency', '1'], {
      env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
      stdin: '10001\n99998\n10003\n99999\n',
    });

    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    const byInput = Object.fromEntries(out.map((line) => [line.input[0], line]));
    expect(Object.keys(byInput).sort()).toEqual(['10001', '10003', '99998', '99999']);
    expect(byInput['10001']).toMatchObject({ ok: false, outcome: 'unknown' });
    expect(byInput['10003']).toMatchObject({ ok: false, outcome: 'unknown' });
    expect(byInput['99998']).toMatchObject({ ok: false, status: 404 });
    expect(byInput['99998']!.outcome).toBeUndefined();

    // Only the refused lines are offered again; re-running the others could add each note twice.
    expect(readFileSync(failed, 'utf8')).toBe('99998\n99999\n');
    // The lost answers were changes that did happen.
    expect(notesBefore('10001')).toBe(before['10001'] + 1);
    expect(notesBefore('10003')).toBe(before['10003'] + 1);
    expect(ctx.sandbox.counters.byOperation['ordersNotesCreate']).toEqual({ received: 4, applied: 2 });

    expect(r.stderr).toContain('2 with an unknown outcome');
    expect(r.stderr).toMatch(/^.*Lines 1, 3 may or may not have been applied \(their answers were lost\): check them before running them again$/m);
    expect(r.stderr).toContain(`The 2 lines to run again are in ${failed}`);
  });
});
