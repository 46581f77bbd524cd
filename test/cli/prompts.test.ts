// Prompts and confirmations, driven in a real pseudo-terminal.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

// Every flow runs in a narrow (80) and a wide (120) terminal: a prompt that wraps must still work.
describe.runIf(hasTmux).each([80, 120])('prompts in a terminal %i columns wide', (width) => {
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
    }, { width });
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
    const before = ctx.sandbox.counters.byOperation['ordersLinesDestroy']?.received ?? 0;
    const t = start(['orders', 'remove-line', '10001', '102']);
    await t.waitFor(/Remove line 102 from order 10001\? The order's totals will be recomputed\. Continue\?/);
    t.keys('n', 'Enter');
    expect(await t.exitCode()).toBe(2);
    expect(t.screen()).toContain('Canceled; nothing was sent');
    expect(ctx.sandbox.counters.byOperation['ordersLinesDestroy']?.received ?? 0).toBe(before);
  });

  it('offers the known webhook events and takes others with --allow-unknown-event', async () => {
    const t = start(['webhooks', 'create', '--target', 'https://hooks.example.com/pty', '--allow-unknown-event']);
    await t.waitFor(/Events to subscribe to/);
    t.keys('Space', 'Down', 'Space', 'Enter');
    await t.waitFor(/Other names, comma-separated/);
    t.type('custom.event, another.one');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(/Events\s+│ app\.uninstalled, cart\.abandoned, custom\.event, another\.one/);
  });

  it('asks again for an event name the platform does not publish, suggesting the nearest', async () => {
    const t = start(['webhooks', 'create', '--target', 'https://hooks.example.com/typo']);
    await t.waitFor(/Events to subscribe to/);
    t.keys('Enter');
    await t.waitFor(/Other names, comma-separated/);
    t.type('order.craeted');
    t.keys('Enter');
    await t.waitFor(/unknown event "order\.craeted"; did you mean order\.created\?/);
    t.keys('C-u');
    t.type('order.created');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(/Events\s+│ order\.created/);
  });

  it('choosing no event at all asks again instead of ending the command', async () => {
    const t = start(['webhooks', 'create', '--target', 'https://hooks.example.com/none']);
    await t.waitFor(/Events to subscribe to/);
    t.keys('Enter');
    await t.waitFor(/Other names, comma-separated/);
    t.keys('Enter');
    await t.waitFor(/Pick at least one: Space ticks the one under the cursor, or type a name after the list\.[^]*Events to subscribe to/);
    t.keys('Space', 'Enter');
    await t.waitFor(/Other names, comma-separated[^]*Other names, comma-separated/);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(/Events\s+│ app\.uninstalled/);
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

  it('auth login asks again for a store URL no store answers at, before asking for the token', async () => {
    const t = Terminal.start(['auth', 'login', '--profile', 'retyped'], { STORE_ADMIN_CONFIG_DIR: dir, NO_COLOR: '1' }, { width });
    terminals.push(t);
    await t.waitFor(/Store URL/);
    // The sandbox speaks plain http: the https assumed for a URL without a scheme cannot reach it.
    const hostPort = ctx.sandbox.url.replace('http://', '');
    t.type(hostPort);
    t.keys('Enter');
    await t.waitFor(new RegExp(`No store answers at https://${hostPort}: TLS failure[^]*if the store speaks plain http, give http://${hostPort}`));
    expect(t.screen()).not.toContain('API token:');
    t.keys('C-u');
    t.type(ctx.sandbox.url);
    t.keys('Enter');
    await t.waitFor(/API token:/);
    t.type(FULL_TOKEN);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toContain(`Logged in to ${ctx.sandbox.url} as profile "retyped"`);
  });

  it('auth login asks again for a token the store rejects, keeping the store URL', async () => {
    const t = Terminal.start(['auth', 'login', '--profile', 'second-try', '--base-url', ctx.sandbox.url], { STORE_ADMIN_CONFIG_DIR: dir, NO_COLOR: '1' }, { width });
    terminals.push(t);
    await t.waitFor(/API token:/);
    t.type('not-the-token-at-all');
    t.keys('Enter');
    await t.waitFor(/API token:[^]*The store rejected the token \(token rejected: [^)]*\); paste it again \(Ctrl-C to stop\)\.[^]*API token:/);
    t.type(FULL_TOKEN);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toContain(`Logged in to ${ctx.sandbox.url} as profile "second-try"`);
    expect(t.screen()).not.toContain('not-the-token-at-all');
  });

  it('auth login with a store URL nothing answers at says so before asking for the token', async () => {
    const hostPort = ctx.sandbox.url.replace('http://', '');
    const t = Terminal.start(['auth', 'login', '--base-url', hostPort], { STORE_ADMIN_CONFIG_DIR: dir, NO_COLOR: '1' }, { width });
    terminals.push(t);
    expect(await t.exitCode()).toBe(1);
    expect(t.screen().replace(/\s+/g, ' ')).toContain(`No store answers at https://${hostPort}: TLS failure`);
    expect(t.screen()).not.toContain('API token:');
  });

  it('--no-input never prompts, even in a terminal, and names everything missing', async () => {
    const t = start(['subscriptions', 'cancel', '--no-input']);
    expect(await t.exitCode()).toBe(2);
    const screen = t.screen();
    expect(screen).toContain('Missing <id> and --reason');
    expect(screen).toContain('Prompts are off (--no-input)');
    expect(screen).not.toContain('Prompts need a terminal');
  });

  it('a prompt checks the answer as the flag would, and asks again', async () => {
    const t = start(['exports', 'create', '--type', 'order_list']);
    await t.waitFor(/From \(YYYY-MM-DD/);
    t.type('01/01/2026');
    t.keys('Enter');
    await t.waitFor(/"01\/01\/2026" is not a date/);
    t.keys('C-u');
    t.type('2026-02-30');
    t.keys('Enter');
    await t.waitFor(/February 2026 has 28 days/);
    t.keys('C-u');
    t.type('2026-01-01');
    t.keys('Enter');
    await t.waitFor(/To \(YYYY-MM-DD/);
    t.type('2026-01-31');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(/From\s+│ 2026-01-01 00:00 UTC/);
  });

  it('the webhook prompts check the target, split events, and mask the secret', async () => {
    const t = start(['webhooks', 'create', '--show-secret']);
    await t.waitFor(/Target URL/);
    t.type('hooks.example.com/x');
    t.keys('Enter');
    await t.waitFor(/must be a valid url/);
    t.keys('C-u');
    t.type('https://hooks.example.com/x');
    t.keys('Enter');
    await t.waitFor(/Events to subscribe to/);
    t.keys('Space', 'Enter');
    await t.waitFor(/Other names, comma-separated/);
    t.keys('Enter');
    await t.waitFor(/Secret key for signing deliveries/);
    t.type('s3cret-value');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const screen = t.screen();
    expect(screen).toMatch(/Secret key for signing deliveries \(Enter for none\): \*{12}/);
    expect(screen).toMatch(/Secret key\s+│ s3cret-value/);
    expect(screen.match(/s3cret-value/g)).toHaveLength(1);
  });

  it('a missing argument is asked for, checked like the argument', async () => {
    const t = start(['subscriptions', 'renew']);
    await t.waitFor(/Subscription id:/);
    t.type('two');
    t.keys('Enter');
    await t.waitFor(/must be a positive whole number/);
    t.keys('C-u');
    t.type('2');
    t.keys('Enter');
    await t.waitFor(/Renew subscription 2 now\?/);
    t.keys('n', 'Enter');
    expect(await t.exitCode()).toBe(2);
  });

  it('pickers show readable labels, and choosing other asks for the explanation', async () => {
    const t = start(['subscriptions', 'cancel', '4', '--json', '--query', '[cancel_reason, cancel_reason_other_message]']);
    await t.waitFor(/Not satisfied with product/);
    expect(t.screen()).not.toContain('not_satisfied_with_product');
    // The list wraps: up from the first choice is the last, "Other".
    t.keys('Up', 'Enter');
    await t.waitFor(/Explain the reason:/);
    t.type('Moving abroad');
    t.keys('Enter');
    await t.waitFor(/Cancel subscription 4 \(reason: other\)/);
    t.keys('y', 'Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen().replace(/\s+/g, '')).toContain('["other","Movingabroad"]');
  });

  it('disputes create with no flags asks for the useful fields, then confirms', async () => {
    const before = ctx.sandbox.counters.byOperation['disputesCreate']?.received ?? 0;
    const t = start(['disputes', 'create']);
    await t.waitFor(/Kind of dispute:/);
    t.keys('Down', 'Enter');
    await t.waitFor(/Disputed amount/);
    t.type('84.001');
    t.keys('Enter');
    await t.waitFor(/at most 6 digits before and 2 after the point/);
    t.keys('C-u');
    t.type('84.00');
    t.keys('Enter');
    await t.waitFor(/Currency/);
    t.type('USD');
    t.keys('Enter');
    await t.waitFor(/Transaction id/);
    t.type('502');
    t.keys('Enter');
    await t.waitFor(/Case number/);
    t.keys('Enter');
    await t.waitFor(/When it happened/);
    t.type('2026-02-01 09:30');
    t.keys('Enter');
    await t.waitFor(/Record a chargeback of 84.00 USD on transaction 502\? Continue\?/);
    t.keys('y', 'Enter');
    expect(await t.exitCode()).toBe(0);
    expect(ctx.sandbox.counters.byOperation['disputesCreate']?.received ?? 0).toBe(before + 1);
    expect(t.screen()).toMatch(/Type\s+│ chargeback/);
  });

  it.each([
    [['fulfillment-orders', 'reject-cancellation', '401'], /Reject the cancellation request of fulfillment order 401\? Continue\?/, 'cancellationRequestReject'],
    [['subscriptions', 'update', '2', '--status', 'past_due'], /Set subscription 2 to past_due\? Continue\?/, 'subscriptionsPartialUpdate'],
    [['api', '/subscriptions/1/cancel/', '-X', 'POST', '-f', 'cancel_reason=other'], /Send POST \/subscriptions\/1\/cancel\/ \(Cancel a subscription\), which cannot be undone\? Continue\?/, 'subscriptionsCancelCreate'],
  ] as const)('%j asks first on a terminal', async (args, question, operation) => {
    const before = ctx.sandbox.counters.byOperation[operation]?.received ?? 0;
    const t = start([...args]);
    await t.waitFor(question);
    t.keys('n', 'Enter');
    expect(await t.exitCode()).toBe(2);
    expect(ctx.sandbox.counters.byOperation[operation]?.received ?? 0).toBe(before);
  });

  it('auth logout --all asks before removing the whole profile, as profiles remove does', async () => {
    const login = await runCli(['auth', 'login', '--profile', 'leaving', '--base-url', ctx.sandbox.url, '--with-token', '--insecure-storage'], {
      env: { STORE_ADMIN_CONFIG_DIR: dir },
      stdin: FULL_TOKEN,
    });
    expect(login.code, login.stderr).toBe(0);
    const t = Terminal.start(['auth', 'logout', '--profile', 'leaving', '--all'], { STORE_ADMIN_CONFIG_DIR: dir, NO_COLOR: '1' }, { width });
    terminals.push(t);
    await t.waitFor(/Remove profile "leaving" and its token\?/);
    t.keys('n', 'Enter');
    expect(await t.exitCode()).toBe(2);
    expect(t.screen()).toContain('Canceled; nothing was removed');
    const list = await runCli(['profiles', 'list', '--json'], { env: { STORE_ADMIN_CONFIG_DIR: dir } });
    expect(list.json().map((p: { name: string }) => p.name)).toContain('leaving');
  });

  it('profiles use and remove with no name offer the profiles to pick from', async () => {
    const own = mkdtempSync(join(tmpdir(), 'store-admin-pick-'));
    try {
      for (const profile of ['alpha', 'beta']) {
        const login = await runCli(['auth', 'login', '--profile', profile, '--base-url', ctx.sandbox.url, '--with-token', '--insecure-storage'], {
          env: { STORE_ADMIN_CONFIG_DIR: own },
          stdin: FULL_TOKEN,
        });
        expect(login.code, login.stderr).toBe(0);
      }
      const use = Terminal.start(['profiles', 'use'], { STORE_ADMIN_CONFIG_DIR: own, NO_COLOR: '1' }, { width });
      terminals.push(use);
      await use.waitFor(/Which profile should be active\?[^]*alpha[^]*\(active\)[^]*beta/);
      use.keys('Down', 'Enter');
      expect(await use.exitCode()).toBe(0);
      expect(use.screen()).toContain('Now using profile "beta".');
      const remove = Terminal.start(['profiles', 'remove'], { STORE_ADMIN_CONFIG_DIR: own, NO_COLOR: '1' }, { width });
      terminals.push(remove);
      await remove.waitFor(/Which profile should be removed\?/);
      remove.keys('Enter');
      await remove.waitFor(/Remove profile "alpha" and its token\?/);
      remove.keys('y', 'Enter');
      expect(await remove.exitCode()).toBe(0);
      const list = await runCli(['profiles', 'list', '--json'], { env: { STORE_ADMIN_CONFIG_DIR: own } });
      expect(list.json()).toEqual([expect.objectContaining({ name: 'beta', active: true })]);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('history show with no run offers the latest runs to pick from', async () => {
    const run = await runCli(['customers', 'add-note', '--each', '-', '--message', 'picked', '--rate', '0'], {
      env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
      stdin: '1\n2\n',
    });
    expect(run.code, run.stderr).toBe(0);
    const id = /Run (\S+);/.exec(run.stderr)![1]!;
    const t = start(['history', 'show']);
    await t.waitFor(new RegExp(`Which run\\?[^]*${id}\\s+customers notes create`));
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toContain(`Run ${id}: customers notes create`);
  });

  it('auth login checks the config dir is private before asking for the token', async () => {
    const loose = mkdtempSync(join(tmpdir(), 'store-admin-loose-'));
    try {
      chmodSync(loose, 0o755);
      const t = Terminal.start(['auth', 'login', '--base-url', ctx.sandbox.url], { STORE_ADMIN_CONFIG_DIR: loose, NO_COLOR: '1' }, { width });
      terminals.push(t);
      expect(await t.exitCode()).toBe(2);
      // The error is wrapped at words to the terminal's width.
      const screen = t.screen().replace(/\s+/g, ' ');
      expect(screen).toContain(`${loose} can be read by other users (mode 0755); not writing a token there`);
      expect(screen).not.toContain('API token:');
    } finally {
      rmSync(loose, { recursive: true, force: true });
    }
  });
});
