// Every one of the platform's 23 events comes from a real change (issue 37.5): `webhooks trigger`
// makes each through the CLI against a sandbox with a webhook at each API version subscribed to
// all of them, and every delivery that arrives, the triggered event's and those its change sends
// beside it, validates against the reference's payload for its event at its webhook's version,
// envelope included (`webhook.store` the store's name). Skipped without ../shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '../../src/api/enums.js';
import { createSeed } from '../../src/sandbox/seed.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { TRIGGERS } from '../../src/webhooks/trigger.js';
import { runInProcess } from '../cli/in-process.js';
import { FULL_TOKEN, startTestSandbox, until } from '../helpers.js';
import { complaints, REFERENCE_PRESENT, referenceValidators, VERSIONS } from '../sandbox/reference-answers.js';
import { startReceiver, type Received, type Receiver } from './receiver.js';

const STORE_NAME = 'Northwind Outfitters';
const ENVELOPE = ['api_version', 'data', 'event_id', 'event_type', 'object', 'webhook'];

describe.skipIf(!REFERENCE_PRESENT)('webhooks trigger: each of the 23 events from a real change, valid at every version', () => {
  const seeded = createSeed();
  const store = memoryStore(seeded);
  let sandbox: Sandbox;
  let receiver: Receiver;
  let validators: Map<string, ReturnType<typeof referenceValidators>>;

  beforeAll(async () => {
    validators = new Map(VERSIONS.map((version) => [version, referenceValidators(version)]));
    receiver = await startReceiver(() => 200);
    // The seeded webhooks point at hosts that never answer: off, so only ours are sent to.
    for (const webhook of Object.values(seeded.records.webhooks)) webhook.active = false;
    for (const [at, version] of VERSIONS.entries()) {
      const id = 3 + at;
      seeded.records.webhooks[String(id)] = { id, active: true, api_version: version, created_at: '2026-02-01T09:00:00Z', updated_at: '2026-02-01T09:00:00Z', events: [...WEBHOOK_EVENTS], name: `every event at ${version}`, next_check_date: null, secret_key: null, target: `${receiver.url}/${version}`, warning_count: 0 };
      seeded.lastIds.webhooks = id;
    }
    sandbox = await startTestSandbox({ token: FULL_TOKEN, store, exportDelaySeconds: 0 });
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });

  const trigger = (event: string) => runInProcess(['webhooks', 'trigger', event, '--json'], { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN });

  /** What the reference finds wrong with a delivery, naming the event, the version and the field. */
  function problemsOf({ url, json }: Received): string[] {
    const version = url.split('/').at(-1)!;
    const where = `${String(json.event_type)} at ${version}`;
    const validate = validators.get(version)!.event(json.event_type);
    if (!validate) return [`${where}: an event the reference does not have`];
    return [
      ...(JSON.stringify(Object.keys(json)) === JSON.stringify(ENVELOPE) ? [] : [`${where}: envelope keys ${Object.keys(json).join(', ')}`]),
      ...(json.api_version === version ? [] : [`${where}: api_version ${json.api_version}`]),
      ...(json.webhook?.store === STORE_NAME ? [] : [`${where}: webhook.store ${json.webhook?.store}`]),
      ...(json.object === String(json.event_type).split('.')[0] ? [] : [`${where}: object ${json.object}`]),
      ...complaints(validate, json.data).map((c) => `${where}: data${c}`),
    ];
  }

  it('has a change for every event the platform publishes', () => {
    expect([...TRIGGERS.keys()].sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const [event, { emits }] of TRIGGERS) expect(emits, event).toContain(event);
  });

  it.each([...WEBHOOK_EVENTS])('%s', async (event) => {
    const before = receiver.requests.length;
    const run = await trigger(event);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout)).toMatchObject({ event, webhooks: [3, 4, 5] });
    await until(`${event} at every version`, () => new Set(receiver.requests.slice(before).filter((r) => r.json.event_type === event).map((r) => r.url)).size === VERSIONS.length, {
      seen: () => receiver.requests.slice(before).map((r) => `${r.json.event_type} ${r.url}`).join(', '),
    });
    await until('the outbox to empty', () => store.state.webhookOutbox.length === 0);
    expect(receiver.requests.slice(before).flatMap(problemsOf).slice(0, 20)).toEqual([]);
  });
});
