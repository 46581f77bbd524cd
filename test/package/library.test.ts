// The typed library as users get it: packed like `npm pack`, installed in a clean folder,
// imported by plain JavaScript and type-checked from TypeScript.
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_TOKEN, until, useSandbox } from '../helpers.js';

const run = promisify(execFile);
const repo = new URL('../..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'store-admin-package-'));
const installed = join(work, 'node_modules', 'store-admin');

describe('the packed library', () => {
  const ctx = useSandbox();

  beforeAll(() => {
    // The tests' build is already in dist/; packing must not rebuild it under running tests.
    const name = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], { cwd: repo, encoding: 'utf8' })
      .trim()
      .split('\n')
      .at(-1)!;
    execFileSync('tar', ['-xzf', join(work, name), '-C', work]);
    mkdirSync(join(work, 'node_modules'), { recursive: true });
    renameSync(join(work, 'package'), installed);
    // Its two dependencies, as npm would install them, without a network round trip.
    for (const dep of ['zod', 'undici']) symlinkSync(join(repo, 'node_modules', dep), join(work, 'node_modules', dep));
  }, 60_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('holds only what runs: no sources, tests or bench', () => {
    const files = execFileSync('find', ['.', '-type', 'f'], { cwd: installed, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.filter((f) => /^\.\/(src|test|bench|scripts)\//.test(f) || (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)))).toEqual([]);
    expect(files).toContain('./dist/index.js');
    expect(files).toContain('./dist/types/index.d.ts');
    expect(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).scripts?.postinstall).toBeUndefined();
  });

  it('imports without loading any command-line code', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      expect(code, file).not.toMatch(/unknown option|helpInformation|@inquirer|cli-table3/);
      for (const [, spec] of code.matchAll(/(?:^|[;\n])\s*import\s*(?:[\w{}\s,*$]+from\s*)?["'](\.[^"']+)["']/g)) {
        visit(join(file, '..', spec!));
      }
    };
    visit(join(installed, 'dist', 'index.js'));
    expect(seen.size).toBeGreaterThan(1);
  });

  it('works from plain JavaScript against the sandbox', async () => {
    writeFileSync(
      join(work, 'consumer.mjs'),
      `import { createClient, ApiError } from 'store-admin';
const store = createClient({ baseUrl: process.env.STORE_URL, token: process.env.STORE_TOKEN });
const types = await store.exports.types({});
const missing = await store.categories.get({ params: { id: 99 } }).catch((e) => e);
console.log(JSON.stringify({ types: types.types.length, missing: missing instanceof ApiError && missing.status }));
await store.close();
`,
    );
    // Asynchronously: the sandbox answers from this very process.
    const result = await run(process.execPath, ['consumer.mjs'], {
      cwd: work,
      env: { PATH: process.env.PATH, STORE_URL: ctx.sandbox.url, STORE_TOKEN: FULL_TOKEN },
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ types: 13, missing: 404 });
  });

  // Bodies are plain data to the compiler and answers unknown until read (the client checks both
  // against the reference at run time); the methods and their path parameters are typed.
  it('is typed: methods and path parameters are checked, answers read as unknown', () => {
    writeFileSync(
      join(work, 'consumer.ts'),
      `import { createClient, verifyWebhookSignature, type OperationOutput } from 'store-admin';
const store = createClient({ baseUrl: 'https://shop.example.com', token: 'x' });
export async function run(): Promise<string | null | undefined> {
  const canceled = (await store.subscriptions.cancel({ params: { id: 1 }, body: { cancel_reason: 'other' } })) as { status?: string };
  // @ts-expect-error: no such command
  await store.subscriptions.cancle({ params: { id: 1 } });
  // @ts-expect-error: ids are numbers
  await store.categories.get({ params: { id: '1' } });
  // @ts-expect-error: the path has no parameter ident
  await store.categories.get({ params: { ident: 1 } });
  await store.orders.removeLine({ params: { number: '10001', lineId: 2 } });
  const list: OperationOutput<'ordersFulfillmentOrdersRetrieve'> = await store.orders.fulfillmentOrders({ params: { number: '10001' } });
  const check: { valid: boolean; matched: 'raw' | 'python-json' | null } = verifyWebhookSignature('{}', undefined, 'secret');
  // @ts-expect-error: the body is text or bytes
  verifyWebhookSignature({}, 'ab', 'secret');
  return Array.isArray(list) && list.length > 0 && check.valid ? canceled.status : null;
}
`,
    );
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, types: [] }, files: ['consumer.ts'] }),
    );
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', work], { cwd: work, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 60_000);

  it("runs the README's webhook receiver, which accepts the sandbox's signed deliveries and refuses forged ones", async () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const snippet = /A webhook receiver checks[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(snippet.trim().split('\n').length).toBeLessThanOrEqual(14);
    writeFileSync(join(work, 'receiver.mjs'), snippet);
    const port = await freePort();
    const receiver = spawn(process.execPath, ['receiver.mjs'], {
      cwd: work,
      env: { PATH: process.env.PATH, PORT: String(port), WEBHOOK_SECRET: 'whsec_readme' },
    });
    let stdout = '';
    const printed = new Promise<void>((resolve) =>
      receiver.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) resolve();
      }),
    );
    try {
      const target = `http://127.0.0.1:${port}/`;
      // The receiver is up once it answers; a forged delivery is refused.
      const forged = await until('the receiver to answer', () =>
        fetch(target, { method: 'POST', body: '{}', headers: { 'x-store-signature': '0'.repeat(64) } }).catch(() => undefined),
      { everyMs: 50 });
      expect(forged.status).toBe(401);
      await ctx.client.webhooks.create({ body: { target, events: ['customer.updated'], secret_key: 'whsec_readme' } });
      await ctx.client.customers.addNote({ params: { id: 2 }, body: { message: 'Zoë prefers e-mail' } });
      await printed;
      expect(stdout).toBe('customer.updated 2\n');
    } finally {
      receiver.kill();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
