// A command made from the table, in a real terminal (tmux): it asks for what its operation
// requires, each answer checked by the schema and asked again when it fails; it asks before a
// change that cannot be undone, naming the object; and a list followed page by page is one table.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { FULL_TOKEN, startTestSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

describe.skipIf(!hasTmux)('a command of the table in a terminal', () => {
  let sandbox: Sandbox;
  const dir = useConfigDir();
  const terminals: Terminal[] = [];
  beforeAll(async () => {
    sandbox = await startTestSandbox({ token: FULL_TOKEN, pageSize: 2 });
  });
  afterAll(() => sandbox.close());
  afterEach(() => terminals.splice(0).forEach((t) => t.kill()));
  const env = () => ({ STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir, NO_COLOR: '1' });
  const start = (args: string[]) => {
    const terminal = Terminal.start(args, env(), { width: 100 });
    terminals.push(terminal);
    return terminal;
  };

  it('asks for each required field, again after an answer the schema refuses', async () => {
    const t = start(['categories', 'create']);
    await t.waitFor(/Name:/);
    t.type('Garden');
    t.keys('Enter');
    await t.waitFor(/Slug:/);
    t.type('garden tools');
    t.keys('Enter');
    await t.waitFor(/must match/);
    t.keys('C-u');
    t.type('garden-tools');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const listed = await runCli(['categories', 'list', '-o', 'csv', '--columns', 'name,slug'], { env: env() });
    expect(listed.stdout).toContain('Garden,garden-tools\n');
  });

  it('asks before a delete, naming what goes; no keeps it', async () => {
    const made = await runCli(['locations', 'create', '--data', '{"name":"Depot","address":{"line1":"1 Main St","line4":"Town","country":"US"}}', '-q', 'id', '--raw'], { env: env() });
    const id = made.stdout.trim();
    const t = start(['locations', 'delete', id]);
    await t.waitFor(new RegExp(`Delete location ${id}\\? This cannot be undone\\. Continue\\?`));
    t.keys('n', 'Enter');
    expect(await t.exitCode()).toBe(2);
    expect((await runCli(['locations', 'get', id, '--json'], { env: env() })).code).toBe(0);
  });

  it('draws a list followed page by page as one table', async () => {
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five']) {
      await runCli(['categories', 'create', '--name', name, '--slug', name.toLowerCase()], { env: env() });
    }
    const t = start(['categories', 'list', '--all', '--columns', 'name,slug']);
    expect(await t.exitCode()).toBe(0);
    const screen = t.screen();
    expect(screen.match(/^┌/gm)).toHaveLength(1);
    expect(screen.match(/^└/gm)).toHaveLength(1);
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five']) expect(screen).toMatch(new RegExp(`│ ${name} +│ ${name.toLowerCase()} +│`));
    // The spinner that said which page was on its way is gone with the last one.
    expect(screen).not.toContain('Fetching');
  });
});
