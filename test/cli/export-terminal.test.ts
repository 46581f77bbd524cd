// Waiting for an export in a real terminal: a spinner with the status and the time waited, and
// Ctrl-C that stops the wait, naming the export.
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

describe.runIf(hasTmux)('waiting for an export in a terminal', () => {
  const ctx = useSandbox({ exportDelaySeconds: 600 });
  const dir = useConfigDir();
  const terminals: Terminal[] = [];
  afterEach(() => terminals.splice(0).forEach((t) => t.kill()));

  it('shows the status and the elapsed time, and Ctrl-C exits 130 naming the export', async () => {
    const t = Terminal.start(['exports', 'create', '--type', 'order_list', '--from', '2026-01-01', '--to', '2026-01-31', '--wait'], {
      STORE_ADMIN_BASE_URL: ctx.sandbox.url,
      STORE_ADMIN_TOKEN: FULL_TOKEN,
      STORE_ADMIN_CONFIG_DIR: dir,
      NO_COLOR: '1',
    });
    terminals.push(t);
    // The elapsed time moves on: first 0s, later at least 1s.
    await t.waitFor(/Waiting for export \d+ \(pending, 0s\)… Ctrl-C to stop/);
    const screen = await t.waitFor(/Waiting for export \d+ \(pending, [1-9]\d*s\)/);
    const id = /Waiting for export (\d+)/.exec(screen)![1];
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(t.screen()).toContain(`store-admin: Stopped waiting for export ${id}; the export itself goes on`);
    expect(t.screen()).toContain(`hint: Fetch it later: store-admin exports download ${id} --wait --output-file FILE`);
  });
});
