// A store's text in what the tool prints: every line for people passes one rule, so no value a
// store sends (an id, a name, an error's detail) can move the terminal or start a CI runner's
// workflow command (`::add-mask::`, `::stop-commands::`), wherever it lands on the line; and an
// id of the wrong type is refused rather than used.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, useConfigDir } from './run.js';

const TOKEN = 'tok_store_text_0123456789';
const INJECTED = '\n::add-mask::x\n::stop-commands::zz\n\u001b]0;owned\u0007\r##[error]fake';

/** No line of `text` acts on a terminal or a CI runner. */
function expectHarmless(text: string, what: string) {
  expect(text, `${what}: control characters`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  for (const line of text.split('\n')) {
    if (line.startsWith('::error title=store-admin')) continue; // the tool's own annotation
    expect(line.trimStart(), `${what}: a line that is a workflow command`).not.toMatch(/^(::|##\[)/);
  }
}

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A store that answers as `handle` says, on 127.0.0.1. */
function useStore() {
  let handle: Handler = (_req, _body, res) => res.writeHead(404).end();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handle(req, body, res));
  });
  const listening = new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    async url() {
      await listening;
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    answer(next: Handler) {
      handle = next;
    },
  };
}

const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const hook = (id: unknown, name: string) => ({ id, name, target: 'https://hooks.example.com/x', events: ['order.created'], active: true, api_version: null, created_at: '2026-01-01T00:00:00Z' });

describe('store text in what is printed', () => {
  const store = useStore();
  const dir = useConfigDir();
  const files = mkdtempSync(join(tmpdir(), 'store-admin-text-'));
  afterAll(() => rmSync(files, { recursive: true, force: true }));
  const cli = async (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { env: { STORE_ADMIN_BASE_URL: await store.url(), STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: dir, ...env } });
  const file = (content: unknown) => {
    const path = join(files, 'webhooks.json');
    writeFileSync(path, JSON.stringify(content));
    return path;
  };

  it('webhooks apply: a created webhook\'s id that is not a number is refused, never printed raw, with or without GitHub Actions', async () => {
    const sent: string[] = [];
    store.answer((req, _body, res) => {
      sent.push(`${req.method} ${req.url}`);
      if (req.method === 'GET') return json(res, 200, { next: null, previous: null, results: [] });
      json(res, 201, hook(INJECTED, 'orders'));
    });
    const path = file({ webhooks: [{ name: 'orders', events: ['order.created'], target: 'https://hooks.example.com/x' }, { name: 'more', events: ['order.created'], target: 'https://hooks.example.com/y' }] });
    for (const env of [{}, { GITHUB_ACTIONS: 'true' }] as Record<string, string>[]) {
      sent.length = 0;
      const run = await cli(['webhooks', 'apply', '-f', path], env);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('store-admin: Created "orders", but the store answered "\\n::add-mask::x\\n::stop-commands::zz…" for it, which is not a webhook id');
      expectHarmless(run.stdout + run.stderr, 'apply');
      // The second webhook waits for a run that can name the first.
      expect(sent.filter((line) => line.startsWith('POST'))).toHaveLength(1);
    }
  });

  it('webhooks apply: a listed webhook id of another type stops the run before any change', async () => {
    const sent: string[] = [];
    store.answer((req, _body, res) => {
      sent.push(`${req.method} ${req.url}`);
      json(res, 200, { next: null, previous: null, results: [hook('7\n::add-mask::x', 'old'), hook(3, 'kept')] });
    });
    const run = await cli(['webhooks', 'apply', '-f', file({ webhooks: [] }), '--prune', '--yes']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('\nstore-admin: The store listed a webhook whose id is "7\\n::add-mask::x", not a positive whole number; nothing was changed\n');
    expect(sent.every((line) => line.startsWith('GET'))).toBe(true);
  });

  it('webhooks apply: a store webhook\'s name is shown escaped in the plan and the prune question', async () => {
    store.answer((_req, _body, res) => json(res, 200, { next: null, previous: null, results: [hook(4, `::add-mask::x${INJECTED}`), hook(5, 'оrders'), hook(6, 'orders\u200b')] }));
    for (const args of [['--dry-run', '-o', 'table'], ['--dry-run', '--json'], ['--yes', '--no-input']]) {
      const run = await cli(['webhooks', 'apply', '-f', file({ webhooks: [] }), '--prune', ...args], { GITHUB_ACTIONS: 'true' });
      expectHarmless(run.stderr, args.join(' '));
      if (args.includes('--json')) continue;
      expectHarmless(run.stdout, args.join(' '));
      const plan = run.stdout + run.stderr;
      expect(plan).toMatch(/- delete +"::add-mask::x\\n::add-mask::x\\n::stop-commands::zz\\n\\u001b\]0;owned\\u0007\\r##\[error\]fake" \(id 4\)/);
      expect(plan).toContain('- delete    "оrders" (id 5) (look-alike: mixes Latin and Cyrillic letters in one word ("оrders"))');
      expect(plan).toContain('- delete    "orders\\u200B" (id 6) (look-alike: holds an invisible character (U+200B))');
    }
  });

  it("webhooks apply: a target URL's password is hidden in the plan, in either output, and sent whole", async () => {
    let created: Record<string, unknown> | undefined;
    store.answer((req, body, res) => {
      if (req.method === 'GET') return json(res, 200, { next: null, previous: null, results: [{ ...hook(4, 'audit'), target: 'https://u:old-pass@hooks.example.com/a' }] });
      if (req.method === 'POST') created = JSON.parse(body) as Record<string, unknown>;
      json(res, req.method === 'POST' ? 201 : 200, hook(8, 'x'));
    });
    const path = file({
      webhooks: [
        { name: 'orders', events: ['order.created'], target: 'https://user:s3cret-pass@hooks.example.com/o' },
        { name: 'audit', events: ['order.created'], target: 'https://u:new-pass@hooks.example.com/a' },
      ],
    });
    for (const args of [['--dry-run', '-o', 'table'], ['--json']]) {
      const run = await cli(['webhooks', 'apply', '-f', path, ...args]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toMatch(/s3cret-pass|old-pass|new-pass/);
      expect(run.stdout + run.stderr).toContain('https://user:***@hooks.example.com/o');
    }
    expect(created?.target).toBe('https://user:s3cret-pass@hooks.example.com/o');
  });

  it('JSON in a pipe writes the characters JSON leaves raw (C1 controls, bidi marks) as escapes, the same value read back', async () => {
    const name = 'a\u009b2Jb\u202ec\u2028d\u007f';
    store.answer((_req, _body, res) => json(res, 200, { next: null, previous: null, results: [hook(1, name)] }));
    for (const args of [['webhooks', 'list'], ['webhooks', 'list', '-o', 'ndjson'], ['webhooks', 'list', '--all'], ['webhooks', 'list', '--all', '-o', 'ndjson']]) {
      const run = await cli(args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(/[\u007f-\u009f\u202e\u2028]/);
      expect(run.stdout).toContain('a\\u009b2Jb\\u202ec\\u2028d\\u007f');
      const parsed = JSON.parse(args.includes('ndjson') ? run.stdout.split('\n')[0]! : run.stdout);
      expect(parsed.results?.[0]?.name ?? parsed.name).toBe(name);
    }
  });

  it("an error's detail, a table's cells, CSV and TSV cells and a list's names pass the same rule", async () => {
    store.answer((req, _body, res) => {
      if (req.url?.startsWith('/api/admin/webhooks/9/')) return json(res, 404, { detail: `gone${INJECTED}` });
      json(res, 200, { next: null, previous: null, results: [hook(1, INJECTED), hook(2, '::set-output name=x::y')] });
    });
    const lists = [['-o', 'table'], ['-o', 'ndjson'], [], ['-o', 'csv'], ['-o', 'tsv'], ['-o', 'csv', '--columns', 'name'], ['-o', 'tsv', '--columns', 'name']];
    // One page shown whole, and pages streamed as they come (--all).
    for (const args of [['webhooks', 'get', '9'], ...lists.flatMap((format) => [['webhooks', 'list', ...format], ['webhooks', 'list', '--all', ...format]])]) {
      const run = await cli(args, { GITHUB_ACTIONS: 'true' });
      expectHarmless(run.stdout + run.stderr, args.join(' '));
    }
  });
});

describe('a server that claims to be a sandbox', () => {
  const store = useStore();
  const dir = useConfigDir();
  const cli = async (args: string[]) => runCli(args, { env: { STORE_ADMIN_BASE_URL: await store.url(), STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: dir, GITHUB_ACTIONS: 'true' } });
  const attempt = {
    id: 'dlv_1', event_id: `e${INJECTED}`, event_type: '::add-mask::x', webhook: 1, attempt: 1, target: 'https://h.example.com/\u001b[2J',
    headers: { 'x-store-event': `order.created${INJECTED}` }, body: `{"a": "${'\\u001b'}"}${INJECTED}`, sent_at: '2026-01-01T00:00:00Z', status: 200,
    duration_ms: 3, ok: true, next_attempt_at: null, deactivated: false, signature_check: { signed: false },
  };
  /** Answers as a sandbox would on its marker path, and as `answers` says on the others. */
  const claim = (answers: Record<string, unknown>) =>
    store.answer((req, _body, res) => {
      if (req.url === '/sandbox/') return json(res, 200, { sandbox: true });
      const answer = answers[`${req.method} ${req.url?.split('?')[0]}`];
      if (answer === undefined) return json(res, 404, { detail: 'Not found.' });
      json(res, 200, { sandbox: true, ...(answer as object) });
    });

  it('an answer of the wrong shape is one line and exit 1, never "unexpected error"', async () => {
    const cases: [Record<string, unknown>, string[], RegExp][] = [
      [{ 'GET /sandbox/clock/': { now: `2026-01-01T00:00:00Z${INJECTED}` } }, ['sandbox', 'clock'], /does not answer as a sandbox does: now is "2026-01-01T00:00:00Z\\n::add-mask::x\\n…"/],
      [{ 'GET /sandbox/clock/': { now: 42 } }, ['sandbox', 'clock', 'advance', '1d'], /does not answer as a sandbox does: now is 42$/m],
      [{ 'GET /sandbox/clock/': { now: '2026-01-01T00:00:00Z' }, 'POST /sandbox/clock/': { from: 'yesterday' } }, ['sandbox', 'clock', 'advance', '1d'], /does not answer as a sandbox does: from is "yesterday"/],
      [{ 'GET /sandbox/deliveries/dlv_1': { delivery: { id: 'dlv_1' } } }, ['webhooks', 'deliveries', 'show', 'dlv_1'], /does not answer as a sandbox does: delivery\.event_id is missing/],
      [{ 'GET /sandbox/deliveries/': { deliveries: [{ ...attempt, webhook: '1\n::add-mask::x' }] } }, ['webhooks', 'deliveries', '-o', 'table'], /does not answer as a sandbox does: deliveries\.0\.webhook is "1\\n::add-mask::x"/],
    ];
    for (const [answers, args, message] of cases) {
      claim(answers);
      const run = await cli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/unexpected/);
      expectHarmless(run.stdout + run.stderr, args.join(' '));
    }
  });

  it('listen --register: a created webhook id that is not a number is refused, and names no file', async () => {
    const id = '../../../../escaped';
    claim({ 'GET /api/admin/webhooks/': { next: null, previous: null, results: [] }, 'POST /api/admin/webhooks/': { ...hook(id, 'x') } });
    const run = await cli(['webhooks', 'listen', '--register']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`store-admin: Registered a webhook for the listener, but the store answered "${id}" for its id, which is not a webhook id (a positive whole number)`);
    expect(existsSync(join(dir, 'escaped.secret'))).toBe(false);
    expect(existsSync(join(dir, 'listen'))).toBe(false);
  });

  it('text in answers of the right shape is shown escaped, on every line', async () => {
    claim({ 'GET /sandbox/deliveries/dlv_1': { delivery: attempt }, 'GET /sandbox/deliveries/': { deliveries: [attempt] }, 'GET /sandbox/clock/': { now: '2026-01-01T00:00:00Z' } });
    for (const args of [['webhooks', 'deliveries', 'show', 'dlv_1', '-o', 'table'], ['webhooks', 'deliveries', '-o', 'table'], ['sandbox', 'clock', '-o', 'table']]) {
      const run = await cli(args);
      expect(run.code, run.stderr).toBe(0);
      expectHarmless(run.stdout + run.stderr, args.join(' '));
    }
  });
});

describe('a hostile config file', () => {
  const dir = useConfigDir();

  it('auth status and profiles list show its profile names, store URLs and granted scopes escaped', async () => {
    const hostile = 'bad\u001b[31mname\n::warning::x';
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        activeProfile: hostile,
        profiles: {
          [hostile]: { baseUrl: 'http://127.0.0.1:9/\n::error::y', token: 'tok_hostile_config_0123', app: { clientId: 'sandbox-app', scopes: ['orders:read', '\u001b]0;owned\u0007', '::add-mask::x'], loggedInAt: '2026-01-01T00:00:00Z' } },
          other: { baseUrl: 'http://127.0.0.1:9/', token: 'tok_other_0123456789' },
        },
      }),
      { mode: 0o600 },
    );
    for (const args of [['auth', 'status', '-o', 'table'], ['auth', 'status'], ['profiles', 'list', '-o', 'table'], ['profiles', 'list']]) {
      const run = await runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir, GITHUB_ACTIONS: 'true' } });
      expectHarmless(run.stdout + run.stderr, args.join(' '));
    }
  });
});

describe('webhooks apply: what the file declares', () => {
  const dir = useConfigDir();
  const files = mkdtempSync(join(tmpdir(), 'store-admin-declared-'));
  afterAll(() => rmSync(files, { recursive: true, force: true }));
  const check = async (text: string) => {
    const path = join(files, 'webhooks.json');
    writeFileSync(path, text);
    return runCli(['webhooks', 'apply', '-f', path, '--dry-run'], { env: { STORE_ADMIN_BASE_URL: 'http://127.0.0.1:9', STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: dir } });
  };
  const entry = (fields: string) => `{"name": "orders", "events": ["order.created"], "target": "https://hooks.example.com/x"${fields}}`;

  it('refuses a key given twice anywhere in the file, which JSON would silently drop', async () => {
    const cases: [string, string][] = [
      [`{"webhooks": [${entry(', "target": "https://attacker.example.com"')}]}`, 'webhooks[0].target: given twice'],
      [`{"webhooks": [], "webhooks": [${entry('')}]}`, 'webhooks: given twice'],
      [`{"webhooks": [${entry('')}, ${entry(', "secret": {"env": "A", "env": "B"}').replace('"orders"', '"b"')}]}`, 'webhooks[1].secret.env: given twice'],
      [`{"webhooks": [${entry(', "n\\u0061me": "x"')}]}`, 'webhooks[0].name: given twice'],
    ];
    for (const [text, problem] of cases) {
      const run = await check(text);
      expect(run.code, text).toBe(2);
      expect(run.stderr.split('\n')[0], text).toContain(`${problem}; JSON keeps only the last, so write it once`);
    }
    // The same key in two objects is no repeat.
    expect((await check(`{"webhooks": [${entry('')}, ${entry('').replace('"orders"', '"other"')}]}`)).stderr).not.toContain('given twice');
  });

  it('refuses look-alike names: letters of two scripts in a word, invisible characters, spaces at the ends', async () => {
    const cases: [string, RegExp][] = [
      ['оrders', /webhooks\[0\]\.name: "оrders" mixes Latin and Cyrillic letters in one word \("оrders"\), so it reads as another name/],
      ['orders\u200b', /webhooks\[0\]\.name: "orders\\u200B" holds an invisible character \(U\+200B\)/],
      ['orders ', /webhooks\[0\]\.name: "orders " begins or ends with white space/],
      ['ｏrders', /webhooks\[0\]\.name: "ｏrders" holds characters that stand for others \(it reads as "orders"\)/],
      ['o\u0363rders', /webhooks\[0\]\.name: "oͣrders" holds a combining mark drawn over a letter \(U\+0363\)/],
    ];
    for (const [name, problem] of cases) {
      const run = await check(`{"webhooks": [${entry('').replace('"orders"', JSON.stringify(name))}]}`);
      expect(run.code, name).toBe(2);
      expect(run.stderr.split('\n')[0]).toMatch(problem);
    }
  });
});
