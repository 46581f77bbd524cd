// Shell completion: each generated script is loaded in its real shell (bash, zsh, fish) and asked
// for candidates, with a `store-admin` on PATH that runs the built CLI.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CANCEL_REASONS, EXPORT_TYPES, SUBSCRIPTION_STATUSES, WEBHOOK_EVENTS } from '../../src/api/enums.js';
import { until } from '../helpers.js';
import { BIN, runCli, useConfigDir } from './run.js';
import { hasTmux } from './tmux.js';
/** The events `webhooks trigger` takes: every one the platform publishes (a change causes it, or a seeded object is sent). */
const TRIGGERABLE = [...WEBHOOK_EVENTS];
/** The subscriptions group in the order help lists it: the operations, then the bulk jobs. */
const SUBSCRIPTION_COMMANDS = ['list', 'create', 'get', 'update', 'cancel', 'lines', 'renew', 'retry', 'transactions', 'shift-renewals', 'cancel-cohort', 'move-gateway', 'retry-past-due'];

const binDir = mkdtempSync(join(tmpdir(), 'store-admin-bin-'));
afterAll(() => rmSync(binDir, { recursive: true, force: true }));
writeFileSync(join(binDir, 'store-admin'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(binDir, 'store-admin'), 0o755);

const configDir = useConfigDir();
writeFileSync(
  join(configDir, 'config.json'),
  JSON.stringify({ activeProfile: 'prod', profiles: { prod: { baseUrl: 'https://x.example.com' }, staging: {} } }),
);

const env = { PATH: `${binDir}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? tmpdir(), STORE_ADMIN_CONFIG_DIR: configDir };
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** What bash offers for a line typed after `store-admin ` (a trailing space: a new, empty word). */
function complete(line: string): string[] {
  const words = ['store-admin', ...line.split(' ')];
  const script = [
    'source <(store-admin completion bash)',
    `COMP_WORDS=(${words.map(quote).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_store_admin',
    `printf '%s\\n' "\${COMPREPLY[@]}"`,
  ].join('\n');
  const result = spawnSync('bash', ['-c', script], { env, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split('\n').filter(Boolean);
}

describe('completion in bash', () => {
  it('completes groups, subcommands and flags', () => {
    expect(complete('sub')).toEqual(['subscriptions']);
    expect(complete('subscriptions ')).toEqual([...SUBSCRIPTION_COMMANDS]);
    // Sub-groups of nested resources, from the table as every other command.
    expect(complete('orders fulfillments events ')).toEqual(['list', 'create', 'get', 'delete']);
    expect(complete('subscriptions cancel 1 --r')).toEqual(expect.arrayContaining(['--reason', '--retries']));
    expect(complete('subscriptions cancel --no-')).toEqual(expect.arrayContaining(['--no-notify', '--no-input', '--no-color']));
    // Global flags and their values are passed over on the way to the command.
    expect(complete('--profile prod --json subscriptions c')).toEqual(['create', 'cancel', 'cancel-cohort']);
    expect(complete('completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('help e')).toEqual(['environment', 'exit-codes', 'exports']);
  });

  it("completes flags' allowed values", () => {
    expect(complete('subscriptions cancel 1 --reason ')).toEqual([...CANCEL_REASONS]);
    expect(complete('exports create --type ')).toEqual([...EXPORT_TYPES]);
    expect(complete('subscriptions update 1 --status ')).toEqual([...SUBSCRIPTION_STATUSES]);
    expect(complete('disputes create --resolution ')).toContain('3ds_authorized_successfully');
    expect(complete('webhooks create --event or')).toEqual(['order.created', 'order.updated']);
    expect(complete('categories get 1 -o ')).toEqual(['json', 'ndjson', 'table', 'csv', 'tsv']);
    // A list's filters, whatever the command: the reference's values.
    expect(complete('orders list --status ')).toEqual(['archived', 'canceled', 'open']);
    expect(complete('transactions list --card-type ma')).toEqual(['maestro', 'mastercard']);
  });

  it('completes profile names from the config', () => {
    expect(complete('--profile ')).toEqual(['prod', 'staging']);
    expect(complete('categories get 1 --profile st')).toEqual(['staging']);
    expect(complete('profiles use ')).toEqual(['prod', 'staging']);
    expect(complete('profiles remove st')).toEqual(['staging']);
  });

  it('completes the events webhooks trigger can cause, not file names', () => {
    expect(complete('webhooks trigger ').sort()).toEqual([...TRIGGERABLE].sort());
    expect(complete('webhooks trigger order.')).toEqual(['order.created', 'order.updated']);
    expect(complete('webhooks trigger order.created ')).toEqual([]);
  });

  it('offers nothing where a free value goes, leaving it to file completion', () => {
    expect(complete('subscriptions cancel ')).toEqual([]);
    expect(complete('categories get 1 --query ')).toEqual([]);
  });
});

/**
 * What the zsh script offers for a line typed after `store-admin `. The script runs in a real zsh;
 * only compsys's builtins are stood in for (compadd prints what it is given, _files says so), since
 * they work only inside an interactive completion widget.
 */
function completeZsh(line: string): string[] {
  const words = ['store-admin', ...line.split(' ')];
  const script = [
    'compdef() { :; }',
    'compadd() { while (( $# )) && [[ $1 != -- ]]; do shift; done; shift; print -rl -- "$@"; }',
    "_files() { print -r -- '<files>'; }",
    'source <(store-admin completion zsh)',
    `words=(${words.map(quote).join(' ')})`,
    `CURRENT=${words.length}`,
    '_store_admin',
  ].join('\n');
  const result = spawnSync('zsh', ['-f', '-c', script], { env, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\n').filter(Boolean);
}

/** What fish offers for a line typed after `store-admin `, asked of fish itself (`complete -C`). */
function completeFish(line: string): string[] {
  const home = mkdtempSync(join(tmpdir(), 'store-admin-fish-'));
  try {
    const script = `store-admin completion fish | source; complete -C ${quote(`store-admin ${line}`)}`;
    const fishEnv = { ...env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
    const result = spawnSync('fish', ['--no-config', '-c', script], { env: fishEnv, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // fish prints `candidate<TAB>description`; the candidates are what the tests care about.
    return result.stdout.split('\n').filter(Boolean).map((row) => row.split('\t')[0]!);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const installed = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const hasZsh = installed('zsh');
const hasFish = installed('fish');
/** A title that says why a block did not run (CI installs both shells; see .ci/run). */
const unless = (present: boolean, shell: string, title: string) => (present ? title : `SKIPPED: ${shell} is not installed: ${title}`);

describe.each([
  ['zsh', completeZsh, hasZsh],
  ['fish', completeFish, hasFish],
] as const)('completion in %s', (shell, completeIn, present) => {
  if (!present) {
    it.skip(`SKIPPED: ${shell} is not installed (CI installs it; see .ci/run)`, () => {});
    return;
  }

  it('completes groups, subcommands and flags', () => {
    expect(completeIn('sub')).toEqual(['subscriptions']);
    expect(completeIn('subscriptions ').sort()).toEqual([...SUBSCRIPTION_COMMANDS].sort());
    expect(completeIn('subscriptions cancel 1 --r')).toEqual(expect.arrayContaining(['--reason', '--retries']));
    expect(completeIn('--profile prod --json subscriptions c').sort()).toEqual(['cancel', 'cancel-cohort', 'create']);
  });

  it('completes the events webhooks trigger can cause, and profile names for profiles use', () => {
    expect(completeIn('webhooks trigger ').sort()).toEqual([...TRIGGERABLE].sort());
    expect(completeIn('webhooks trigger order.').sort()).toEqual(['order.created', 'order.updated']);
    expect(completeIn('profiles use ').sort()).toEqual(['prod', 'staging']);
  });

  it("completes flags' allowed values and profile names", () => {
    expect(completeIn('subscriptions cancel 1 --reason ').sort()).toEqual([...CANCEL_REASONS].sort());
    expect(completeIn('exports create --type order_l').sort()).toEqual(['order_line_items', 'order_list']);
    expect(completeIn('categories get 1 --profile st')).toEqual(['staging']);
  });
}
);

describe.skipIf(!hasTmux || !hasZsh)(unless(hasTmux && hasZsh, 'tmux or zsh', 'completion in an interactive zsh, through its own widget'), () => {
  // A tmux server of its own (-L), so its start and stop never race the other files' terminals.
  const socket = `sa-zsh-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const session = 'completion';
  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
  });

  /** Waits until the screen matches; fails with the screen when it never does. */
  function screenMatching(pattern: RegExp): Promise<string> {
    const screen = () => tmux('capture-pane', '-p', '-J', '-t', session);
    return until(`the screen to match ${pattern}`, () => pattern.test(screen()) && screen(), { everyMs: 50, seen: () => `\n${screen()}` });
  }

  it('lists the subcommands on Tab and completes a unique group in place', async () => {
    const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '30', ...envArgs, 'zsh -f');
    // PATH is set here too: a tmux server already running keeps the PATH it started with.
    const setup = `export PATH=${quote(env.PATH)}; PS1='> '; autoload -U compinit && compinit -u && source <(store-admin completion zsh) && echo READY`;
    tmux('send-keys', '-t', session, '-l', setup);
    tmux('send-keys', '-t', session, 'Enter');
    await screenMatching(/^READY$/m);
    tmux('send-keys', '-t', session, '-l', 'store-admin sub');
    tmux('send-keys', '-t', session, 'Tab');
    await screenMatching(/^> store-admin subscriptions $/m);
    tmux('send-keys', '-t', session, 'Tab');
    const screen = await screenMatching(/retry-past-due/);
    for (const name of SUBSCRIPTION_COMMANDS) expect(screen).toMatch(new RegExp(`(^|\\s)${name}(\\s|$)`, 'm'));
    expect(screen).not.toMatch(/unrecognized modifier|command not found/);
  });
});

describe('completion where nothing is offered', () => {
  it.skipIf(!hasZsh)(unless(hasZsh, 'zsh', 'zsh falls back to file names'), () => {
    expect(completeZsh('subscriptions cancel ')).toEqual(['<files>']);
  });

  it.skipIf(!hasFish)(unless(hasFish, 'fish', 'fish falls back to file names'), () => {
    const files = completeFish('subscriptions cancel /');
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((f) => f.startsWith('/'))).toBe(true);
  });
});

describe('completion scripts', () => {
  it('rejects an unknown shell', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bash, zsh, fish');
  });
});
