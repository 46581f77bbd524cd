// Shared test fixtures: a sandbox on an ephemeral port and clients pointed at it.
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createClient, type ClientOptions, type StoreClient } from '../src/api/client.js';
import { loadAllOperations, type OperationId, type OperationSchemas } from '../src/api/operations.js';
import type { Clock } from '../src/clock.js';
import { clockNow } from '../src/sandbox/clock.js';
import { SANDBOX_PATH, SANDBOX_ROUTES } from '../src/sandbox/paths.js';
import type { ClockMove } from '../src/sandbox/scheduler.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/server.js';

export const FULL_TOKEN = 'test-full-token';

/**
 * A sandbox for a test that is not about the rate limit: the platform's 4 requests per second per
 * token is lifted unless `options.faults.rate` sets one, so tests run as fast as the machine
 * allows. The default (4/s) is what users get, and what the rate-limit tests check.
 */
export function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ ...options, faults: { seed: 1, ...options.faults, rate: options.faults?.rate ?? 0 } });
}

/** Every operation's response schemas at every version the reference has it: `onAnswer` checks synchronously. */
let responseSchemas: Promise<Map<string, OperationSchemas>> | undefined;
function loadResponseSchemas(): Promise<Map<string, OperationSchemas>> {
  return (responseSchemas ??= (async () => {
    const byVersion = new Map<string, OperationSchemas>();
    for (const op of await loadAllOperations()) {
      for (const version of op.versions) byVersion.set(`${op.id} ${version}`, await op.schemas(version));
    }
    return byVersion;
  })());
}

/**
 * Where the sandbox on this branch still answers a shape older than the reference's, by operation
 * and version: the issues (`path code`) its answers are known to have. The reference-driven
 * sandbox answers these whole, and this list goes with the old one; nothing may be added to it.
 */
const OLD_SANDBOX_GAPS: Record<string, RegExp> = {
  // A subscription's lines carry a slim product, without the fields Product of 2023-02-10 requires.
  'subscriptionsCancelCreate 2023-02-10': /^lines\.\d+\.product\.(children|date_created|date_updated|rating|structure) invalid_type$/,
  'subscriptionsRenewCreate 2023-02-10': /^lines\.\d+\.product\.(children|date_created|date_updated|rating|structure) invalid_type$/,
};

/**
 * Starts a sandbox for the enclosing describe block and stops it afterwards. Every answer the
 * sandbox sends is held to the reference's response schema of its operation at the version it
 * answered, and every client made here reports its warnings: a test during which either
 * complains fails, naming the complaint.
 */
export function useSandbox(options: SandboxOptions = {}) {
  const ctx = {} as { sandbox: Sandbox; client: StoreClient; clientWith(options?: Partial<ClientOptions>): StoreClient };
  const clients: StoreClient[] = [];
  const complaints: string[] = [];
  let responses = new Map<string, OperationSchemas>();
  /** Operations whose answer had only OLD_SANDBOX_GAPS in this test: the client's warning about it is expected. */
  const gapped = new Set<OperationId>();
  const checkAnswer = (id: OperationId, body: unknown, version: string) => {
    const schemas = responses.get(`${id} ${version}`);
    if (!schemas) return void complaints.push(`sandbox answered ${id} at ${version}, a version the reference does not have it in`);
    const sent: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
    const parsed = schemas.response.safeParse(schemas.normalize ? schemas.normalize(sent) : sent);
    if (!parsed.success) {
      const gap = OLD_SANDBOX_GAPS[`${id} ${version}`];
      const fields = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(object)'} ${issue.code}`);
      const unknown = fields.filter((field) => !gap?.test(field));
      if (unknown.length === 0) gapped.add(id);
      else complaints.push(`sandbox answer to ${id} at ${version} breaks its schema: ${fields.join('; ')}`);
    }
  };
  beforeAll(async () => {
    responses = await loadResponseSchemas();
    ctx.sandbox = await startTestSandbox({
      token: FULL_TOKEN,
      ...options,
      onAnswer: (id, body, version) => {
        checkAnswer(id, body, version);
        options.onAnswer?.(id, body, version);
      },
    });
    ctx.clientWith = (overrides = {}) => {
      const client = createClient({
        baseUrl: ctx.sandbox.url,
        token: FULL_TOKEN,
        ...overrides,
        onWarning: (message) => {
          complaints.push(`client warning: ${message}`);
          overrides.onWarning?.(message);
        },
      });
      clients.push(client);
      return client;
    };
    ctx.client = ctx.clientWith();
  });
  afterEach(() => {
    const expected = (complaint: string) => [...gapped].some((id) => complaint === `client warning: The response to ${id} does not match the documented shape; showing it as received`);
    const found = complaints.splice(0).filter((complaint) => !expected(complaint));
    gapped.clear();
    expect(found, 'sandbox answers and client warnings during this test').toEqual([]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await ctx.sandbox.close();
  });
  return ctx;
}

/** A raw request, as curl would send it, for the server's own error paths. */
export async function raw(
  sandbox: Sandbox,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: string } = {},
) {
  const response = await fetch(`${sandbox.url}/api/admin${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** How long a test waits for something it expects, well inside the test's own timeout. */
export const WAIT_MS = 10_000;

/**
 * Polls `check` until it gives a truthy value, and returns that value. After `timeoutMs` it fails
 * naming what was awaited (and, with `seen`, what there was instead), rather than hanging until
 * the test's own timeout says nothing useful.
 */
export async function until<T>(
  what: string,
  check: () => T | Promise<T>,
  { timeoutMs = WAIT_MS, everyMs = 10, seen }: { timeoutMs?: number; everyMs?: number; seen?: () => string } = {},
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
    if (performance.now() > deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}${seen ? `; there was: ${seen()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Settles as `event` does, or fails after `timeoutMs` naming what was awaited. */
export async function within<T>(what: string, event: Promise<T>, { timeoutMs = WAIT_MS, seen }: { timeoutMs?: number; seen?: () => string } = {}): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Waited ${timeoutMs} ms for ${what}${seen ? `; there was: ${seen()}` : ''}`)), timeoutMs);
  });
  try {
    return await Promise.race([event, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Moves the sandbox's clock `ms` on through its own route (POST /sandbox/clock/, as `sandbox clock
 * advance` does): what falls due on the way happens, in time order (an export turns available, a
 * delivery is retried). Says what it did.
 */
export async function advanceClock(sandbox: Sandbox, ms: number): Promise<ClockMove> {
  const at = await sandbox.store.transact((state) => clockNow(state), false);
  const moved = await fetch(`${sandbox.url}${SANDBOX_PATH}${SANDBOX_ROUTES.clock}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ to: new Date(at + ms).toISOString() }),
  });
  if (!moved.ok) throw new Error(`the sandbox's clock did not move: ${moved.status} ${await moved.text()}`);
  return (await moved.json()) as ClockMove;
}

/**
 * A clock of a command run in process (`overrides.clock`) whose pauses take no wall time: each
 * moves its time on at once, after `pass(ms)` (by default, a turn of the event loop). `waits` are
 * the command's pauses, in order.
 */
export function movedClock(pass: (ms: number) => Promise<unknown> = () => new Promise((resolve) => setImmediate(resolve))): Clock & { waits: number[] } {
  let now = Date.now();
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      await pass(ms);
      now += ms;
      waits.push(ms);
      signal?.throwIfAborted();
    },
  };
}

/**
 * The clock of a command run in process as the sandbox's own: a wait of N ms moves the sandbox's
 * clock N ms on at once (advanceClock), so an export polled every few seconds turns available with
 * no wall time passing, and the command sees the times the sandbox does.
 */
export const sandboxClock = (sandbox: Sandbox) => movedClock((ms) => advanceClock(sandbox, ms));

/** A clock that never waits, for a command whose pauses only pace it (the rate limiter's turns). */
export const jumpClock = () => movedClock();
