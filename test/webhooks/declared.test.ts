// The webhooks file of `webhooks apply`, read without a store: its defaults, its secrets named by
// an environment variable or a file beside it, and every problem reported at once with its place
// in the file. webhooks-apply.test.ts reads files end to end.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { IO } from '../../src/io.js';
import { readDeclaredWebhooks } from '../../src/webhooks/declared.js';

const dir = mkdtempSync(join(tmpdir(), 'store-admin-declared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const io = (env: Record<string, string> = {}) => ({ env: { STORE_ADMIN_CONFIG_DIR: join(dir, 'config'), ...env } }) as unknown as IO;
let n = 0;
const read = (content: unknown, env?: Record<string, string>, allowUnknownEvent = false) => {
  const file = join(dir, `webhooks-${n++}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  // Every variable the test sets is one the command line names (--secret-env).
  return readDeclaredWebhooks(file, io(env), { allowUnknownEvent, secretEnv: Object.keys(env ?? {}) });
};
const hook = (more: Record<string, unknown> = {}) => ({ name: 'orders', events: ['order.created'], target: 'https://hooks.example.com/orders', ...more });

describe('readDeclaredWebhooks', () => {
  it('fills in the defaults: active, and no version of its own (the store keeps its)', async () => {
    expect(await read({ webhooks: [hook()] })).toEqual([
      { name: 'orders', events: ['order.created'], target: 'https://hooks.example.com/orders', active: true, api_version: null },
    ]);
    expect((await read({ webhooks: [hook({ active: false, api_version: '2024-04-01' })] }))[0]).toMatchObject({ active: false, api_version: '2024-04-01' });
  });

  it('reads a secret from the environment or from a file beside the webhooks file, and says where from', async () => {
    writeFileSync(join(dir, 'orders.secret'), 'whsec_from_file\n');
    const [byEnv, byFile] = await read({ webhooks: [hook({ secret: { env: 'HOOK_SECRET' } }), hook({ name: 'disputes', secret: { file: 'orders.secret' } })] }, { HOOK_SECRET: 'whsec_from_env' });
    expect(byEnv).toMatchObject({ secret: 'whsec_from_env', secretSource: 'env HOOK_SECRET' });
    expect(byFile).toMatchObject({ secret: 'whsec_from_file', secretSource: 'file orders.secret' });
  });

  it('reports every problem at once, each at its place in the file, naming no secret', async () => {
    const problems = read({
      webhooks: [
        hook({ events: ['order.craeted'] }),
        hook({ name: 'orders', target: 'ftp://hooks.example.com/x', colour: 'red' }),
        hook({ name: 'inline', secret: 'hunter2' }),
        hook({ name: 'unset', secret: { env: 'NOT_SET_ANYWHERE' } }),
        hook({ name: 'own', secret: { env: 'STORE_ADMIN_TOKEN' } }),
        hook({ name: 'odd', secret: { vault: 'x' } }),
      ],
    });
    await expect(problems).rejects.toThrow(/webhooks\[1\]\.target: must be an http\(s\) URL/);
    await expect(problems).rejects.toThrow(/webhooks\[1\]: unknown field: colour/);
    await expect(problems).rejects.toThrow(/webhooks\[1\]\.name: "orders" is declared twice \(also webhooks\[0\]\)/);
    await expect(problems).rejects.toThrow(/webhooks\[0\]\.events\[0\]: unknown event "order\.craeted"; did you mean order\.created\?/);
    const fixed = read({ webhooks: [hook({ name: 'inline', secret: 'hunter2' }), hook({ name: 'unset', secret: { env: 'NOT_SET_ANYWHERE' } }), hook({ name: 'own', secret: { env: 'STORE_ADMIN_TOKEN' } }), hook({ name: 'odd', secret: { vault: 'x' } })] });
    await expect(fixed).rejects.toThrow(/webhooks\[0\]\.secret: a secret is never written in the file/);
    // A variable the command line does not name is not read at all (--secret-env).
    await expect(fixed).rejects.toThrow(/webhooks\[1\]\.secret\.env: NOT_SET_ANYWHERE is read only when the command names it: add --secret-env NOT_SET_ANYWHERE/);
    await expect(fixed).rejects.toThrow(/webhooks\[2\]\.secret\.env: STORE_ADMIN_TOKEN is one of store-admin's own settings, not a webhook secret/);
    await expect(fixed).rejects.toThrow(/webhooks\[3\]\.secret: must be \{"env": "VAR"\} or \{"file": "path"\}/);
    await expect(fixed).rejects.not.toThrow(/hunter2/);
  });

  it('refuses a file that is not JSON or not of the shape, and takes an unknown event only when allowed', async () => {
    await expect(read('{"webhooks": [')).rejects.toThrow(/: not valid JSON/);
    await expect(read({ hooks: [] })).rejects.toThrow(/webhooks: is required; \(file\): unknown field: hooks/);
    await expect(read({ webhooks: [hook({ events: [] })] })).rejects.toThrow(/webhooks\[0\]\.events: must name at least one event/);
    await expect(read({ webhooks: [hook({ events: ['inventory.changed'] })] })).rejects.toThrow(/unknown event "inventory\.changed"/);
    expect((await read({ webhooks: [hook({ events: ['inventory.changed'] })] }, {}, true))[0]!.events).toEqual(['inventory.changed']);
  });
});
