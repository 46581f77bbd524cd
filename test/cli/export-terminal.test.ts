// Waiting for an export in a real terminal: a spinner with the status and the time waited, and
// Ctrl-C that stops the wait, naming the export.
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { Clock } from '../../src/clock.js';
import { FULL_TOKEN, sandboxClock, until, useSandbox } from '../helpers.js';
import { useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

const CREATE = ['exports', 'create', '--type', 'order_list', '--from', '2026-01-01', '--to', '2026-01-31', '--wait'];

describe.runIf(hasTmux)('waiting for an export in a terminal', () => {
  const ctx = useSandbox({ exportDelaySeconds: 600 });
  const dir = useConfigDir();
  const terminals: Terminal[] = [];
  afterEach(() => terminals.splice(0).forEach((t) => t.kill()));

  it('shows the status and the time waited, and Ctrl-C exits 130 naming the export', async () => {
    const t = Terminal.start(CREATE, { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir, NO_COLOR: '1' });
    terminals.push(t);
    const screen = await t.waitFor(/Waiting for export \d+ \(pending, 0s\)… Ctrl-C to stop/);
    const id = /Waiting for export (\d+)/.exec(screen)![1];
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(t.screen()).toContain(`store-admin: Stopped waiting for export ${id}; the export itself goes on`);
    expect(t.screen()).toContain(`hint: Fetch it later: store-admin exports download ${id} --wait --output-file FILE`);
  });
});

describe('the time a wait shows in a terminal', () => {
  // Pending for the sandbox's default 5 s: polled at 2, 4 and 6 s of its clock.
  const ctx = useSandbox();
  const dir = useConfigDir();

  it("is the run's clock's: it moves on with each pause, as the spinner redraws", async () => {
    let screen = '';
    const stderr = { isTTY: true, columns: 120, write: (chunk: string) => ((screen += chunk), true) };
    const stdout = { isTTY: false, write: () => true };
    const stdin = Object.assign(Readable.from([]), { isTTY: false });
    // Each pause moves the sandbox's clock, then lets the spinner draw the new time (every 80 ms).
    const sandbox = sandboxClock(ctx.sandbox);
    const clock: Clock = {
      now: sandbox.now,
      async sleep(ms, signal) {
        await sandbox.sleep(ms, signal);
        const drawn = screen.length;
        await until('the spinner to draw again', () => screen.length > drawn);
      },
    };
    const env = { PATH: process.env.PATH, NO_COLOR: '1', STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
    expect(await main(CREATE, { stdin, stdout, stderr, env }, { clock })).toBe(0);
    const times = [...screen.matchAll(/Waiting for export \d+ \(pending, (\d+s)\)… Ctrl-C to stop/g)].map((m) => m[1]);
    expect([...new Set(times)]).toEqual(['0s', '2s', '4s', '6s']);
    expect(sandbox.waits).toEqual([2000, 2000, 2000]);
  });
});
