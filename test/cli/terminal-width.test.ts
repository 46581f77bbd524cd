// Help, tables, the pager and coloured JSON in a real terminal, at 80 and 120 columns.
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

describe.runIf(hasTmux)('a real terminal', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const terminals: Terminal[] = [];
  afterEach(() => terminals.splice(0).forEach((t) => t.kill()));
  const start = (args: string[], size: { width: number; height?: number }, env: Record<string, string> = {}) => {
    const terminal = Terminal.start(
      args,
      { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir, NO_COLOR: '1', STORE_ADMIN_PAGER: '', ...env },
      size,
    );
    terminals.push(terminal);
    return terminal;
  };
  /** The lines printed before the shell's EXIT marker, trailing blanks removed. */
  const printed = (screen: string) => screen.slice(0, screen.indexOf('EXIT:')).split('\n').map((line) => line.trimEnd());

  it.each([80, 120])('help fits %i columns and starts with the usage', async (width) => {
    const t = start(['subscriptions', 'update', '--help'], { width, height: 100 });
    expect(await t.exitCode()).toBe(0);
    const lines = printed(t.screen());
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(width);
    expect(lines).toContain('USAGE');
    expect(lines).toContain('INHERITED FLAGS');
    // Wrapped to the width: the description column starts at the same place, so lines are longer at 120.
    expect(Math.max(...lines.map((l) => l.length))).toBeGreaterThan(width - 12);
  });

  it.each([80, 120])('a table fits %i columns', async (width) => {
    const t = start(['categories', 'get', '1'], { width });
    expect(await t.exitCode()).toBe(0);
    const lines = printed(t.screen()).filter((l) => l.startsWith('│') || l.startsWith('┌'));
    expect(lines.length).toBeGreaterThan(5);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(width);
    // Every row keeps its frame: nothing was wrapped by the terminal.
    expect(lines.every((l) => l.endsWith('│') || l.endsWith('┐'))).toBe(true);
  });

  it('history at 80 columns shows every run id whole, wrapping cells or leaving the store out', async () => {
    const run = await runCli(['fulfillment-orders', 'reject-cancellation', '--each', '-', '--yes', '--rate', '0'], {
      env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
      stdin: '401\n402\n',
    });
    const id = /Run (\S+);/.exec(run.stderr)![1]!;
    for (const width of [80, 120]) {
      const t = start(['history'], { width, height: 40 });
      expect(await t.exitCode()).toBe(0);
      const lines = printed(t.screen()).filter((l) => /^[│┌└]/.test(l));
      expect(lines.join('\n')).toContain(id);
      expect(lines.join('\n')).not.toContain('…');
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(width);
      expect(lines.every((l) => /[│┐┘]$/.test(l))).toBe(true);
    }
  });

  it('long output goes through the pager on a terminal', async () => {
    const t = start(['exports', 'types', '--json'], { width: 80, height: 20 }, { STORE_ADMIN_PAGER: "sed 's/^/PAGED /'" });
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(/^PAGED \s+"code": "fulfillment_line_items",$/m);
  });

  it('a delivery shown, --help and a help topic go through the pager when longer than the screen', async () => {
    const env = { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
    await ctx.client.webhooks.create({ body: { target: 'https://hooks.example.com/paged', events: ['order.updated'] } });
    expect((await runCli(['webhooks', 'trigger', 'order.updated'], { env })).code).toBe(0);
    const [delivery] = (await runCli(['webhooks', 'deliveries', '--limit', '1', '--json'], { env })).json();
    const paged = { STORE_ADMIN_PAGER: "sed 's/^/PAGED /'" };
    for (const args of [['webhooks', 'deliveries', 'show', delivery.id], ['subscriptions', 'update', '--help'], ['help', 'exit-codes']]) {
      const t = start(args, { width: 80, height: 12 }, paged);
      expect(await t.exitCode(), args.join(' ')).toBe(0);
      // The screen holds the text's end: every line of it came through the pager.
      const shown = printed(t.screen()).filter(Boolean);
      expect(shown.length, args.join(' ')).toBeGreaterThan(5);
      expect(shown.filter((line) => !line.startsWith('PAGED')), args.join(' ')).toEqual([]);
    }
  });

  it('an error and its hint are wrapped at words to an 80-column terminal, and stay one line each in a pipe', async () => {
    const args = ['--sandbox', 'webhooks', 'trigger', 'subscription.updated', '--set', 'shipping_pric=9'];
    const piped = await runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir } });
    expect(piped.code).toBe(2);
    const [message, hint] = piped.stderr.trimEnd().split('\n');
    expect(message!.length).toBeGreaterThan(80);
    expect(hint).toMatch(/^hint: /);
    const t = start(args, { width: 80 });
    expect(await t.exitCode()).toBe(2);
    // The screen as shown, lines the terminal wrapped itself joined back: none is over 80.
    const lines = printed(t.screen()).filter(Boolean);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(lines.length).toBeGreaterThan(2);
    // Every word whole: the lines, joined at their breaks, are the message and the hint.
    const hintAt = lines.findIndex((line) => line.startsWith('hint: '));
    expect(lines.slice(0, hintAt).map((line) => line.trim()).join(' ')).toBe(message);
    expect(lines.slice(hintAt).map((line) => line.trim()).join(' ')).toBe(hint);
  });

  it('short output is printed as it is, and JSON is coloured on a terminal', async () => {
    const t = start(['exports', 'types', '-q', 'types[0]'], { width: 80 }, { NO_COLOR: '', STORE_ADMIN_PAGER: "sed 's/^/PAGED /'" });
    expect(await t.exitCode()).toBe(0);
    const screen = t.screen({ colors: true });
    expect(screen).not.toContain('PAGED');
    expect(screen).toMatch(/\x1b\[[0-9;]*m"code"/);
  });
});
