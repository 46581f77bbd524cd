// The seeded store for the rules' tests (orders and payments, subscriptions, disputes, …): each
// test starts from the seed afresh, with a webhook at each API version subscribed to the events the
// tests read (the order and payment events unless they name others), and drives the sandbox through the
// CLI (`store-admin api`, in process). After each test, every answer the sandbox gave is held to
// the platform's reference at the version it was asked for, and every event queued to its
// webhook's version (both skipped without ../shared).
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { OperationId } from '../../src/api/operations.js';
import type { KindName, Rec } from '../../src/sandbox/kinds.js';
import { createSeed } from '../../src/sandbox/seed.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/server.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { runInProcess } from '../cli/in-process.js';
import { useConfigDir } from '../cli/run.js';
import { FULL_TOKEN, startTestSandbox } from '../helpers.js';
import { complaints, REFERENCE_PRESENT, referenceValidators, VERSIONS } from './reference-answers.js';

export interface CliAnswer {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

export interface QueuedEvent {
  event_type: string;
  api_version: string;
  data: Rec;
  webhook: { id: number };
}

const EVENTS = ['order.created', 'order.updated', 'transaction.created', 'transaction.updated', 'customer.created', 'subscription.created'];

/** A webhook per API version, delivering nowhere reachable: what it is sent stays queued, to be read. */
function webhooks(state: ReturnType<typeof createSeed>, events: readonly string[]): void {
  VERSIONS.forEach((version, at) => {
    const id = 90 + at;
    state.records.webhooks[String(id)] = { id, active: true, api_version: version, events: [...events], name: `Orders at ${version}`, target: `http://127.0.0.1:9/${version}`, secret_key: null, warning_count: 0, next_check_date: null };
  });
}

/** `events`: those the harness's webhooks subscribe to; `sandbox`: the sandbox's own options (tokens, the partner app). */
export function useOrderSandbox({ events = EVENTS, sandbox = {} }: { events?: readonly string[]; sandbox?: SandboxOptions } = {}) {
  const store = memoryStore(createSeed());
  const dir = useConfigDir();
  const validators = REFERENCE_PRESENT ? new Map(VERSIONS.map((version) => [version, referenceValidators(version)])) : undefined;
  const answers: { id: OperationId; version: string; body: unknown }[] = [];
  const ctx = {
    sandbox: undefined as unknown as Sandbox,
    store,
    /** `store-admin api PATH -X METHOD` with the body on stdin, at a version when given; its JSON parsed. */
    async cli(method: string, path: string, body?: unknown, version?: string): Promise<CliAnswer> {
      const args = ['api', path, '-X', method, '--yes', ...(version ? ['--api-version', version] : []), ...(body === undefined ? [] : ['--input', '-'])];
      const env = { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
      const run = await runInProcess(args, env, body === undefined ? '' : JSON.stringify(body));
      return { ...run, json: run.stdout.trim() ? JSON.parse(run.stdout) : undefined };
    },
    /** A record as the rules left it. */
    record(kind: KindName, key: string | number): Rec {
      return store.state.records[kind][String(key)]!;
    },
    /** The events queued since the test began, as this harness's 2024-04-01 webhook was sent them. */
    events(): QueuedEvent[] {
      return queued().filter((event) => event.webhook.id === 90 + VERSIONS.indexOf('2024-04-01'));
    },
  };
  const queued = () => store.state.webhookOutbox.map((delivery) => JSON.parse(delivery.body) as QueuedEvent);
  beforeAll(async () => {
    ctx.sandbox = await startTestSandbox({ ...sandbox, store, token: FULL_TOKEN, onAnswer: (id, body, version) => answers.push({ id, version, body: structuredClone(body) }) });
  });
  beforeEach(() => {
    store.state = createSeed();
    webhooks(store.state, events);
    answers.length = 0;
  });
  afterEach(() => {
    if (!validators) return;
    const problems = [
      ...answers.flatMap(({ id, version, body }) => {
        const check = validators.get(version as (typeof VERSIONS)[number])!.answer(id);
        return check ? complaints(check.validate, body ?? null).map((p) => `${id} at ${version}: ${p}`) : [];
      }),
      ...queued().flatMap((event) => {
        const check = validators.get(event.api_version as (typeof VERSIONS)[number])!.event(event.event_type);
        return check ? complaints(check, event.data).map((p) => `${event.event_type} at ${event.api_version}: ${p}`) : [`no payload for ${event.event_type} at ${event.api_version}`];
      }),
    ];
    expect([...new Set(problems)], 'answers and events that break the reference').toEqual([]);
  });
  afterAll(() => ctx.sandbox.close());
  return ctx;
}
