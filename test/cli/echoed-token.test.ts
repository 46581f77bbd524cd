// A store that puts the token it was sent into its errors ({"detail":"Invalid token Bearer …"}):
// the token in use is scrubbed from every error before it is kept (history.jsonl, run journals)
// or printed (history, auth status, auth login), whether or not the command connected first.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, useConfigDir } from './run.js';

const TOKEN = 'echoed-profile-token-5678';

describe('a store that echoes the token', () => {
  const dir = useConfigDir();
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const sent = String(req.headers.authorization);
      // Reads are refused as a bad token, changes as a bad request: both echo what was sent.
      res.writeHead(req.method === 'GET' ? 401 : 400, { 'content-type': 'application/json', 'x-echo': sent });
      res.end(JSON.stringify({ detail: `Invalid token ${sent}`, [sent]: [`token ${sent}`] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  const cli = (args: string[], stdin?: string) => runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir }, stdin });
  const clean = (text: string, what: string) => {
    expect(text, what).not.toContain(TOKEN);
  };

  it('keeps it out of the history and the run journals', async () => {
    const login = await cli(['auth', 'login', '--base-url', url, '--with-token', '--skip-verify', '--insecure-storage'], TOKEN);
    expect(login.code, login.stderr).toBe(0);
    const single = await cli(['customers', 'add-note', '1', '--message', 'hi']);
    expect(single.code).toBe(1);
    clean(single.stdout + single.stderr, 'the change');
    expect(single.stderr).toContain('Invalid token Bearer ***');
    const file = join(dir, 'ids.txt');
    writeFileSync(file, '1\n2\n');
    const bulk = await cli(['customers', 'add-note', '--each', file, '--message', 'hi', '--rate', '0']);
    expect(bulk.code).toBe(1);
    clean(bulk.stdout + bulk.stderr, 'the bulk run');
    const kept = [join(dir, 'history', 'history.jsonl'), ...readdirSync(join(dir, 'history', 'runs')).map((name) => join(dir, 'history', 'runs', name))];
    expect(kept.length).toBeGreaterThan(1);
    for (const path of kept) clean(readFileSync(path, 'utf8'), path);
    expect(readFileSync(join(dir, 'history', 'history.jsonl'), 'utf8')).toContain('Invalid token Bearer ***');

    const run = /Run (\S+);/.exec(bulk.stderr)![1]!;
    for (const args of [['history'], ['history', '-o', 'table'], ['history', 'show', run], ['history', 'show', run, '-o', 'table']]) {
      const shown = await cli(args);
      expect(shown.code, args.join(' ')).toBe(0);
      clean(shown.stdout + shown.stderr, args.join(' '));
    }
  });

  it('keeps it out of auth status and auth login, which check the token before any command connects', async () => {
    for (const args of [['auth', 'status'], ['auth', 'status', '--json'], ['auth', 'status', '-o', 'table']]) {
      const status = await cli(args);
      expect(status.code, args.join(' ')).toBe(4);
      clean(status.stdout + status.stderr, args.join(' '));
      expect(status.stdout + status.stderr).toContain('Bearer ***');
    }
    const login = await cli(['auth', 'login', '--base-url', url, '--with-token', '--profile', 'second'], `${TOKEN}\n`);
    expect(login.code).toBe(4);
    clean(login.stdout + login.stderr, 'auth login');
    expect(login.stderr).toContain('Bearer ***');
  });
});
