// The client's retry policy against a sandbox that misbehaves on purpose: reads survive injected
// failures, changes are never applied twice, rate limits never reach the user, and every failure
// class ends as one line and its exit code.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, type StoreClient } from '../../src/api/client.js';
import type { RetryInfo } from '../../src/api/retry.js';
import { ApiError, NetworkError } from '../../src/api/errors.js';
import { parseFaults } from '../../src/sandbox/faults.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { runInProcess } from '../cli/in-process.js';
import { BIN } from '../cli/run.js';
import { FULL_TOKEN, startTestSandbox, until, within } from '../helpers.js';
import { writeFigures, type Figure } from './figures.js';

const figures: Figure[] = [];
const open: { sandbox?: Sandbox; client?: StoreClient; server?: Server }[] = [];
afterAll(async () => {
  for (const item of open) {
    await item.client?.close();
    await item.sandbox?.close();
    item.server?.close();
  }
  writeFigures('faults', figures);
});

async function sandboxWith(faults: string, seed: number, options: SandboxOptions = {}) {
  const sandbox = await startTestSandbox({ token: FULL_TOKEN, faults: parseFaults(faults, seed), ...options });
  open.push({ sandbox });
  return sandbox;
}

function clientFor(sandbox: Sandbox, retries?: number) {
  let waits = 0;
  // Short backoff steps keep the test quick; the policy (what is retried, how often) is the same.
  const client = createClient({ baseUrl: sandbox.url, token: FULL_TOKEN, baseDelayMs: 5, retries, timeoutMs: 2000, onRetry: () => waits++ });
  open.push({ client });
  return { client, retries: () => waits };
}

const errorLine = (stderr: string) => stderr.split('\n').find((line) => line.startsWith('store-admin:')) ?? '';

async function outcomes<T>(count: number, run: (i: number) => Promise<T>) {
  let ok = 0;
  const failures: unknown[] = [];
  for (let i = 0; i < count; i++) {
    try {
      await run(i);
      ok++;
    } catch (error) {
      failures.push(error);
    }
  }
  return { ok, failures };
}

describe('reads and idempotent writes through injected failures', () => {
  const faults = 'error=0.15:503,reset-before=0.075,reset-after=0.075';

  it.each([
    [2, 0.95],
    [5, 0.99],
  ])('GET with %i retries: at least %f succeed', async (retries, share) => {
    const sandbox = await sandboxWith(faults, 11);
    const { client, retries: waits } = clientFor(sandbox, retries);
    const { ok, failures } = await outcomes(300, () => client.categories.get({ params: { id: 1 } }));
    expect(ok / 300).toBeGreaterThanOrEqual(share);
    for (const failure of failures) expect(failure instanceof NetworkError || failure instanceof ApiError).toBe(true);
    figures.push({
      scenario: `Reads (GET), --retries ${retries}`,
      setup: `300 requests; 30% injected: 15% 503, 7.5% reset before, 7.5% reset after the handler (seed 11)`,
      result: `${ok}/300 succeeded; ${waits()} retries; ${sandbox.counters.received} requests reached the store`,
    });
  });

  it('PATCH is retried the same way and leaves one state', async () => {
    const sandbox = await sandboxWith(faults, 12);
    const { client, retries: waits } = clientFor(sandbox, 5);
    const { ok } = await outcomes(100, (i) => client.subscriptions.update({ params: { id: 1 }, body: { interval_count: i + 1 } }));
    expect(ok).toBeGreaterThanOrEqual(99);
    figures.push({
      scenario: 'Partial updates (PATCH), --retries 5',
      setup: '100 requests, same 30% faults (seed 12)',
      result: `${ok}/100 succeeded; ${waits()} retries; repeating a PATCH leaves the same state`,
    });
  });
});

describe('changes are never applied twice', () => {
  it('under resets after the handler, each POST is sent once and the outcome is reported as unknown', async () => {
    const store = memoryStore();
    // A subscription's orders are those that name it (its num_orders is worked out when it is answered).
    const renewals = () => Object.values(store.state.records.orders).filter((order) => ((order.subscriptions ?? []) as { id: unknown }[]).some((link) => String(link.id) === '1')).length;
    const ordersBefore = renewals();
    const sandbox = await sandboxWith('reset-after=0.3,truncate=0.05', 21, { store });
    const env = { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN };
    const runs = [
      ...Array.from({ length: 40 }, (_, i) => ['disputes', 'create', '--case-number', `case-${i}`, '--type', 'alert']),
      ...Array.from({ length: 20 }, () => ['subscriptions', 'renew', '1', '--yes']),
      ...Array.from({ length: 20 }, (_, i) => ['orders', 'add-note', '10002', '--message', `note ${i}`]),
      ['subscriptions', 'cancel', '4', '--reason', 'other', '--yes'],
    ];
    let unknown = 0;
    let succeeded = 0;
    for (const args of runs) {
      const r = await runInProcess(args, env);
      if (r.code === 0) succeeded++;
      else {
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/may or may not have been applied|accepted the change .* could not be read/);
        unknown++;
      }
    }
    const counts = sandbox.counters.byOperation;
    // Every invocation sent exactly one request: nothing was retried.
    expect(counts['disputesCreate']?.received).toBe(40);
    expect(counts['subscriptionsRenewCreate']?.received).toBe(20);
    expect(counts['ordersNotesCreate']?.received).toBe(20);
    const caseNumbers = Object.values(store.state.records.disputes).filter((d) => d.case_number).map((d) => d.case_number);
    expect(new Set(caseNumbers).size).toBe(caseNumbers.length);
    expect(renewals()).toBe(ordersBefore + 20);
    const injected = (sandbox.counters.faults['reset-after'] ?? 0) + (sandbox.counters.faults.truncate ?? 0);
    expect(unknown).toBe(injected);
    figures.push({
      scenario: 'Changes (POST) under lost answers',
      setup: '81 CLI runs (40 dispute creates, 20 renews, 20 notes, 1 cancel); 30% reset after the handler, 5% truncated (seed 21)',
      result: `${succeeded} succeeded, ${unknown} reported "may or may not have been applied" (exit 1); each sent exactly once, each applied at most once (40 distinct disputes, 20 renewal orders)`,
    });
  });

  it('a DELETE whose answer was lost reports the likely outcome instead of a bare 404', async () => {
    const store = memoryStore();
    const sandbox = await sandboxWith('reset-after=1', 22, { store });
    const r = await runInProcess(['orders', 'remove-line', '10002', '105', '--yes'], { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the retry found nothing to delete: the first attempt most likely deleted it');
    // A removed line stays on the order with nothing left (the platform's current_quantity).
    expect((store.state.records.orders['10002']!.lines as { id: number; current_quantity: number }[]).map((l) => [l.id, l.current_quantity])).toEqual([
      [104, 1],
      [105, 0],
    ]);
    expect(sandbox.counters.byOperation['ordersLinesDestroy']).toEqual({ received: 2, applied: 1 });
  });

  it('a POST is retried when the connection was refused, since nothing was sent', async () => {
    let attempts = 0;
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', token: FULL_TOKEN, baseDelayMs: 5, retries: 2, onRequest: () => attempts++ });
    open.push({ client });
    await expect(client.disputes.create({ body: {} })).rejects.toMatchObject({ kind: 'refused' });
    expect(attempts).toBe(3);
  });
});

describe('rate limits', () => {
  it('a loop at full speed against 4 requests/s: the store answers 429s, the caller never sees one', async () => {
    const sandbox = await sandboxWith('rate=4', 31);
    const seen: number[] = [];
    const client = createClient({ baseUrl: sandbox.url, token: FULL_TOKEN, onResponse: (r) => seen.push(r.status) });
    open.push({ client });
    const started = Date.now();
    const answers: unknown[] = [];
    // Four pass in the first second; the rest are answered 429 with Retry-After and go after it.
    for (let i = 0; i < 6; i++) {
      if (i % 2) answers.push(((await client.categories.get({ params: { id: 1 } })) as { id: number }).id);
      else answers.push(((await client.orders.addNote({ params: { number: '10001' }, body: { message: `n${i}` } })) as { message: string }).message);
    }
    const seconds = (Date.now() - started) / 1000;
    const limited = sandbox.counters.faults['rate-limit'] ?? 0;
    // Every call gave its own answer, although the store did throttle some attempts on the way.
    expect(answers).toEqual(Array.from({ length: 6 }, (_, i) => (i % 2 ? 1 : `n${i}`)));
    expect(limited).toBeGreaterThan(0);
    expect(seen.filter((status) => status === 429)).toHaveLength(limited);
    const finals = seen.filter((status) => status !== 429);
    expect(finals).toHaveLength(6);
    expect(finals.every((status) => status >= 200 && status < 300)).toBe(true);
    figures.push({
      scenario: 'Rate limit',
      setup: 'a loop of 6 requests (reads and note POSTs) against 4 requests/s per token, 429 with Retry-After',
      result: `6/6 succeeded, no 429 reached the caller; ${limited} answered 429 and were retried after Retry-After; ${seconds.toFixed(1)} s`,
    });
  });

  it('429s spend no retries: they are waited out as Retry-After asks, until the waits would pass the time limit', async () => {
    let answered = 0;
    let throttleFor = 3;
    const server = createServer((_req, res) => {
      answered++;
      if (answered <= throttleFor) {
        res.writeHead(429, { 'retry-after': '0.05', 'content-type': 'application/json' });
        res.end('{"detail":"Request was throttled."}');
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"types":[]}');
    });
    open.push({ server });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const waits: RetryInfo[] = [];
    const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 't', retries: 0, timeoutMs: 120, onRetry: (info) => waits.push(info) });
    open.push({ client });
    // --retries 0, yet three 429s in a row are waited out: 150 ms of waits would pass the 120 ms limit, 100 do not.
    throttleFor = 2;
    await expect(client.exports.types({})).resolves.toEqual({ types: [] });
    expect(waits).toEqual([0, 1].map(() => ({ attempt: 0, of: 0, delayMs: 50, reason: '429 Too Many Requests', throttled: true })));
    answered = 0;
    throttleFor = 3;
    const error = (await client.exports.types({}).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, message: 'Request was throttled.', hint: 'The store asks to wait 0.05 s more, after 0.1 s of waits, past the time limit (--timeout 0.12 s)' });
    expect(answered).toBe(3);
  });

  it('a Retry-After beyond the cap fails at once, saying when to retry', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(429, { 'retry-after': '120', 'content-type': 'application/json' });
      res.end('{"detail":"Request was throttled."}');
    });
    open.push({ server });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    let attempts = 0;
    const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 't', onRequest: () => attempts++ });
    const error = (await client.exports.types({}).catch((e: unknown) => e)) as ApiError;
    // At once: no attempt waits for the Retry-After it was given.
    expect(attempts).toBe(1);
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/asks to wait 120 s; retry after \d{4}-\d{2}-\d{2}T/);
    await client.close();
  });

  it('honours Retry-After as an HTTP date', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(503, { 'retry-after': new Date(Date.now() + 1000).toUTCString() });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"types":[]}');
      }
    });
    open.push({ server });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const waits: number[] = [];
    const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 't', onRetry: (i) => waits.push(i.delayMs) });
    await expect(client.exports.types({})).resolves.toEqual({ types: [] });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(1000);
    await client.close();
  });
});

describe('every failure class is one line and a documented exit code', () => {
  const cases: [string, string, string[], RegExp, number][] = [
    ['DNS', '', ['--base-url', 'https://nonexistent-store.invalid'], /^store-admin: Cannot resolve nonexistent-store\.invalid$/m, 1],
    ['refused', '', ['--base-url', 'http://127.0.0.1:9', '--retries', '0'], /^store-admin: Connection refused by 127\.0\.0\.1:9$/m, 1],
    ['timeout', 'hang=1', ['--timeout', '0.3', '--retries', '0'], /^store-admin: No complete answer from 127\.0\.0\.1:\d+ within 0\.3 s$/m, 1],
    ['reset', 'reset-before=1', ['--retries', '1'], /^store-admin: The connection to .* was reset$/m, 1],
    // A 429 is waited out whatever --retries says, within --timeout: the sandbox asks for 1 s.
    ['429', 'rate=1', ['--retries', '0', '--timeout', '0.5'], /^store-admin: Request was throttled.* \(HTTP 429\)\nhint: The store asks to wait 1 s past the time limit \(--timeout 0\.5 s\)$/m, 1],
    ['5xx', 'error=1:503', ['--retries', '0'], /^store-admin: The sandbox failed on purpose\. \(HTTP 503\)$/m, 1],
    ['truncated body', 'truncate=1', ['--retries', '0'], /^store-admin: The answer \(200\) from .* was cut short$/m, 1],
    ['HTML page from a proxy', 'html=1', ['--retries', '0'], /^store-admin: 502 Bad Gateway$/m, 1],
  ];

  it.each(cases)('%s', async (name, faults, flags, message, code) => {
    const sandbox = await sandboxWith(faults || 'latency=0', 41);
    // The rate-limit case spends its one request first, so the command meets the limit.
    if (name === '429') await clientFor(sandbox, 0).client.categories.get({ params: { id: 1 } });
    // A token set with STORE_ADMIN_BASE_URL goes to that store only: one that --base-url points elsewhere comes alone.
    const env: Record<string, string> = flags.includes('--base-url') ? { STORE_ADMIN_TOKEN: FULL_TOKEN } : { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN };
    const r = await runInProcess(['categories', 'get', '1', ...flags], env);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const debug = await runInProcess(['categories', 'get', '1', ...flags], { ...env, STORE_ADMIN_DEBUG: '1' });
    expect(debug.stderr).toMatch(/\n\s+at /);
    figures.push({ scenario: `Failure: ${name}`, setup: faults || flags.join(' '), result: `exit ${code}: \`${errorLine(r.stderr)}\`` });
  });

  it('TLS: https to a server that speaks plain http', async () => {
    const server = createServer((_req, res) => res.end());
    open.push({ server });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const r = await runInProcess(['categories', 'get', '1', '--retries', '0'], {
      STORE_ADMIN_BASE_URL: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      STORE_ADMIN_TOKEN: FULL_TOKEN,
    });
    expect(r.code).toBe(1);
    // The TLS class itself, not the catch-all "Request to … failed" that any failure would give.
    expect(r.stderr).toMatch(/^store-admin: TLS failure talking to 127\.0\.0\.1:\d+ \([A-Z0-9_]+\)$/m);
    figures.push({ scenario: 'Failure: TLS', setup: 'https:// to a plain-http server', result: `exit 1: \`${errorLine(r.stderr)}\`` });
  });
});

describe('Ctrl-C', () => {
  it.each([
    ['a read', ['categories', 'get', '1'], /^store-admin: Interrupted$/m],
    ['a change', ['orders', 'add-note', '10001', '-m', 'x'], /may or may not have been applied/],
  ])('aborts %s at once with exit 130', async (_name, args, message) => {
    // The store never answers, and the request may wait an hour: only an abort ends the run.
    const sandbox = await sandboxWith('hang=1', 51);
    const child = spawn(process.execPath, [BIN, ...args, '--timeout', '3600'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await until('the request to reach the store', () => sandbox.counters.received > 0);
    child.kill('SIGINT');
    expect(await within('the run to end on Ctrl-C', exited, { seen: () => stderr })).toBe(130);
    expect(stderr).toMatch(message);
  });
});
