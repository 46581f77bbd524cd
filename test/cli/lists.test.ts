// A list command, end to end: one page by default with the way to more on stderr, --cursor, --all
// and --limit; each page written as it arrives (a stand-in store holds the next page back until the
// first is seen on stdout); the platform's rate kept while following pages; Ctrl-C leaving what was
// printed whole; and the formats a spreadsheet user expects.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { IO } from '../../src/io.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { FULL_TOKEN, startTestSandbox, until } from '../helpers.js';
import { runInProcess } from './in-process.js';
import { startCli } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'store-admin-lists-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Categories written straight into the sandbox's state, named as given (newest last). */
async function seedCategories(sandbox: Sandbox, names: string[]): Promise<void> {
  await sandbox.store.transact((state) => {
    names.forEach((name, i) => {
      state.records.categories[String(i + 1)] = { id: i + 1, name, slug: `c${i + 1}` };
    });
    state.lastIds.categories = names.length;
  }, true);
}

describe('a list against the sandbox', () => {
  let sandbox: Sandbox;
  const NAMES = ['Shoes, "best"', '=HYPERLINK("http://evil.example")', '-12.50', '@SUM(A1)', 'Tab\there', 'Plain'];
  beforeAll(async () => {
    sandbox = await startTestSandbox({ token: FULL_TOKEN, pageSize: 2 });
    await seedCategories(sandbox, NAMES);
  });
  afterAll(() => sandbox.close());
  const env = () => ({ STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const run = (...args: string[]) => runInProcess(['categories', 'list', ...args], env());
  const ids = (stdout: string) => stdout.trim().split('\n').map((line) => (JSON.parse(line) as { id: number }).id);

  it('shows one page (as JSON, the page the store answered), and says on stderr how to get the next', async () => {
    const r = await run('--json');
    expect(r.code, r.stderr).toBe(0);
    const page = JSON.parse(r.stdout) as { next: string; results: { id: number }[] };
    expect(page.results.map((c) => c.id)).toEqual([6, 5]);
    expect(page.next).toMatch(/cursor=/);
    const cursor = /--cursor (\S+) for the next page/.exec(r.stderr)?.[1];
    expect(r.stderr).toMatch(/^2 shown; for more: --all for every page, --limit N for N records, or --cursor \S+ for the next page$/m);
    const next = await run('--cursor', cursor!, '-o', 'ndjson');
    expect(ids(next.stdout)).toEqual([4, 3]);
  });

  it('follows every page with --all, and stops after N records with --limit N', async () => {
    const all = await run('--all', '-o', 'ndjson');
    expect(all.code, all.stderr).toBe(0);
    expect(ids(all.stdout)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(all.stderr).toBe('');
    const three = await run('--limit', '3', '-o', 'ndjson');
    expect(ids(three.stdout)).toEqual([6, 5, 4]);
    expect(three.stderr).toMatch(/^Stopped at --limit 3; there are more \(--all for every one\)$/m);
    // JSON keeps the platform's page shape: one page holding every record.
    const one = await run('--all', '--json');
    expect(JSON.parse(one.stdout)).toMatchObject({ next: null, previous: null, results: { length: 6 } });
    expect(JSON.parse((await run('--limit', '3', '--json')).stdout)).toMatchObject({ next: null, results: { length: 3 } });
  });

  it('draws one table across the pages, under one head', async () => {
    const r = await runInProcess(['categories', 'list', '--all', '-o', 'table', '--columns', 'id,slug'], { ...env(), COLUMNS: '60' });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^┌/);
    expect(lines.filter((line) => /^[┌└]/.test(line))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(/^└/);
    expect(lines.filter((line) => /│ c\d /.test(line))).toHaveLength(6);
  });

  it('writes CSV with a header row, RFC 4180 quoting and formulas neutralised', async () => {
    const r = await run('--all', '-o', 'csv', '--columns', 'id,name');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        'id,name',
        '6,Plain',
        '5,Tab\there',
        "4,'@SUM(A1)",
        '3,-12.50',
        `2,"'=HYPERLINK(""http://evil.example"")"`,
        '1,"Shoes, ""best"""',
        '',
      ].join('\n'),
    );
    const raw = await run('--all', '-o', 'csv', '--columns', 'name', '--csv-raw');
    expect(raw.stdout.split('\n')).toContain('"=HYPERLINK(""http://evil.example"")"');
  });

  it('writes TSV with tabs and line breaks escaped, and every field when no columns are named', async () => {
    const r = await run('--all', '-o', 'tsv');
    expect(r.stdout.split('\n')[0]).toBe('id\tname\tslug');
    expect(r.stdout.split('\n')).toContain('5\tTab\\there\tc5');
  });

  it('gives JSON only the columns asked for, under their dotted names', async () => {
    const r = await run('--json', '--columns', 'id,missing.path');
    expect(JSON.parse(r.stdout).results).toEqual([
      { id: 6, 'missing.path': null },
      { id: 5, 'missing.path': null },
    ]);
    const all = await run('--all', '--json', '--columns', 'id');
    expect(JSON.parse(all.stdout).results).toEqual([6, 5, 4, 3, 2, 1].map((id) => ({ id })));
  });

  it('applies a --query to the whole list, and --raw prints it bare', async () => {
    const r = await run('--all', '-q', 'results[].slug', '--raw');
    expect(r.stdout).toBe('c6\nc5\nc4\nc3\nc2\nc1\n');
  });
});

describe('following pages at the platform rate', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    // A store enforcing the platform's 4 requests a second per token, one record a page.
    sandbox = await startTestSandbox({ token: FULL_TOKEN, pageSize: 1, faults: { seed: 1, rate: 4 } });
    await seedCategories(sandbox, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  });
  afterAll(() => sandbox.close());

  it('is never refused for going too fast', async () => {
    const r = await runInProcess(['categories', 'list', '--all', '-o', 'ndjson'], { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(9);
    expect(sandbox.counters.faults['rate-limit'] ?? 0).toBe(0);
  });
});

/**
 * A stand-in store that serves pages of orders and holds back the page at `held` until told, so a
 * test can look at what the CLI printed in between.
 */
async function pagedStore(pages: number, perPage: number, held: number) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const asked: number[] = [];
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url!, 'http://store');
    const page = Number(url.searchParams.get('cursor') ?? '0');
    asked.push(page);
    if (page === held) await released;
    const results = Array.from({ length: perPage }, (_, i) => ({ number: String(page * perPage + i + 1), status: 'open' }));
    const next = page + 1 < pages ? `http://${request.headers.host}/api/admin/orders/?cursor=${page + 1}` : null;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ next, previous: null, results }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, asked, release, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

describe('each page as it arrives', () => {
  it('prints the first page before the next one is even answered', async () => {
    const store = await pagedStore(3, 2, 1);
    try {
      let printed = '';
      const io: IO = {
        stdin: Object.assign(Readable.from([]), { isTTY: false }),
        stdout: { isTTY: false, write: (chunk: string) => ((printed += chunk), true) },
        stderr: { isTTY: false, write: () => true },
        env: { PATH: process.env.PATH, STORE_ADMIN_BASE_URL: store.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
      };
      const running = main(['orders', 'list', '--all', '-o', 'csv', '--columns', 'number'], io);
      await until('the first page on stdout while the second is held', () => printed === 'number\n1\n2\n' && store.asked.includes(1));
      store.release();
      expect(await running).toBe(0);
      expect(printed).toBe('number\n1\n2\n3\n4\n5\n6\n');
    } finally {
      store.release();
      await store.close();
    }
  });

  it('stops at Ctrl-C with every row printed whole', async () => {
    const store = await pagedStore(5, 3, 2);
    const cli = startCli(['orders', 'list', '--all', '-o', 'csv', '--columns', 'number,status'], { STORE_ADMIN_BASE_URL: store.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
    try {
      await cli.printed('stdout', /^6,open\n/m);
      await until('the held page asked for', () => store.asked.includes(2));
      cli.interrupt();
      expect(await cli.exited).toBe(130);
      expect(cli.out.stdout).toBe('number,status\n1,open\n2,open\n3,open\n4,open\n5,open\n6,open\n');
    } finally {
      cli.kill();
      store.release();
      await store.close();
    }
  });
});
