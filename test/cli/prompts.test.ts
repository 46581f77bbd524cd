// Prompts and confirmations, driven in a real pseudo-terminal.
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

describe.runIf(hasTmux)('prompts in a terminal', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const terminals: Terminal[] = [];
  afterEach(() => terminals.splice(0).forEach((t) => t.kill()));
  const start = (args: string[]) => {
    const terminal = Terminal.start(args, {
      STORE_ADMIN_BASE_URL: ctx.sandbox.url,
      STORE_ADMIN_TOKEN: FULL_TOKEN,
      STORE_ADMIN_CONFIG_DIR: dir,
      NO_COLOR: '1',
    });
    terminals.push(terminal);
    return terminal;
  };

  it('asks for a cancel reason from a list, then confirms', async () => {
    const t = start(['subscriptions', 'cancel', '1']);
    await t.waitFor(/Why is it canceled\?/);
    t.keys('Down', 'Enter');
    await t.waitFor(/Cancel subscription 1 \(reason: product_too_expensive\); the customer will be notified\. Continue\?/);
    t.keys('y', 'Enter');
    expect(await t.exitCode()).toBe(0);
    const screen = t.screen();
    expect(screen).toMatch(/Status\s+│ canceled/);
    expect(screen).toMatch(/Cancel reason\s+│ product_too_expensive/);
  });

  it('declining the confirmation sends nothing', async () => {
    const before = ctx.sandbox.counters.byOperation['orders.removeLine']?.received ?? 0;
    const t = start(['orders', 'remove-line', '10001', '102']);
    await t.waitFor(/Remove line 102 from order 10001\? The order's totals will be recomputed\. Continue\?/);
    t.keys('n', 'Enter');
    expect(await t.exitCode()).toBe(2);
    expect(t.screen()).toContain('Canceled; nothing was sent');
    expect(ctx.sandbox.counters.byOperation['orders.removeLine']?.received ?? 0).toBe(before);
  });

  it('offers the known webhook events and still takes others', async () => {
    const t = start(['webhooks', 'create', '--target', 'https://hooks.example.com/pty']);
    await t.waitFor(/Events to subscribe to/);
    t.keys('Space', 'Down', 'Space', 'Enter');
    await t.waitFor(/Other names, comma-separated/);
    t.type('custom.event, another.one');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(/Events\s+│ app\.uninstalled, cart\.abandoned, custom\.event, another\.one/);
  });

  it('asks for the export type and dates', async () => {
    const t = start(['exports', 'create']);
    await t.waitFor(/What to export\?/);
    t.keys('Enter');
    await t.waitFor(/From \(YYYY-MM-DD/);
    t.type('2026-01-01');
    t.keys('Enter');
    await t.waitFor(/To \(YYYY-MM-DD/);
    t.type('2026-01-31');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(/To\s+│ 2026-01-31 23:59 UTC/);
  });

  it('asks for a note', async () => {
    const t = start(['customers', 'add-note', '2']);
    await t.waitFor(/Note:/);
    t.type('Called about sizing');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(/Message\s+│ Called about sizing/);
  });

  it('Ctrl-C at a prompt exits 130 and sends nothing', async () => {
    const before = ctx.sandbox.counters.received;
    const t = start(['subscriptions', 'renew', '2']);
    await t.waitFor(/Continue\?/);
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('auth login asks for the store URL and a masked token', async () => {
    const t = Terminal.start(['auth', 'login', '--profile', 'typed'], { STORE_ADMIN_CONFIG_DIR: dir, NO_COLOR: '1' });
    terminals.push(t);
    await t.waitFor(/Store URL/);
    t.type(`${ctx.sandbox.url}/api/admin/`);
    t.keys('Enter');
    await t.waitFor(/API token:/);
    t.type(FULL_TOKEN);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const screen = t.screen();
    expect(screen).toContain('Logged in to');
    expect(screen).toMatch(/API token: \*+/);
    expect(screen).not.toContain(FULL_TOKEN);
  });

  it('--no-input never prompts, even in a terminal', async () => {
    const t = start(['subscriptions', 'cancel', '1', '--no-input']);
    expect(await t.exitCode()).toBe(2);
    expect(t.screen()).toContain('Missing --reason');
  });
});
