// Checking an input once: a call is checked when it is prepared, and what is sent is the frozen
// copy that was checked. The caller's objects are left alone, the client sends a prepared call
// without checking it again, and a bad input is refused naming every bad field.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createClient } from '../../src/api/client.js';
import { ValidationError } from '../../src/api/errors.js';
import { loadOperation } from '../../src/api/operations.js';
import { prepareCall, prepareCallWith, PreparedCall } from '../../src/api/prepare.js';
import { validateInput } from '../../src/api/validate.js';

const update = 'subscriptionsPartialUpdate' as const;

describe('validateInput', () => {
  it('names every bad field of path parameters, query and body at once', async () => {
    const op = await loadOperation('ordersNotesCreate');
    const schemas = await op.schemas();
    const error = (() => {
      try {
        validateInput(op, schemas, { params: { number: '' }, body: { message: 42, extra: true } });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    const paths = (error as ValidationError).issues.map((issue) => issue.path);
    expect(paths).toContainEqual(['params', 'number']);
    expect(paths).toContainEqual(['body', 'message']);
    expect((error as ValidationError).issues.find((issue) => issue.path.length === 1 && issue.path[0] === 'body')?.message).toMatch(/unknown field: extra/);
  });

  it('refuses a query for an operation that takes none', async () => {
    const op = await loadOperation('categoriesRetrieve');
    const schemas = await op.schemas();
    expect(() => validateInput(op, schemas, { params: { id: 1 }, query: { page: '2' } })).toThrow(/query/);
  });
});

describe('prepareCall', () => {
  it('builds the call: path filled and encoded, body checked and serialised', async () => {
    const call = await prepareCall('ordersNotesCreate', { params: { number: 'A/1 b' }, body: { message: 'hi' } });
    expect(call).toBeInstanceOf(PreparedCall);
    expect(call).toMatchObject({ operation: 'ordersNotesCreate', method: 'POST', path: '/orders/A%2F1%20b/notes/', search: '', body: { message: 'hi' } });
    expect(JSON.parse(call.json!)).toEqual(call.body);
    const list = await prepareCall('webhooksList', { query: { name: 'a b', active: true } });
    expect(list.search).toBe('?name=a+b&active=true');
    expect(list.json).toBeUndefined();
  });

  it('is frozen all the way down, and the caller\'s input is not frozen at all', async () => {
    const body = { interval_count: 2, payment_details: { card_token: 'tok_1' } };
    const input = { params: { id: 3 }, body };
    const call = await prepareCall(update, input as never);
    expect(Object.isFrozen(call)).toBe(true);
    expect(Object.isFrozen(call.params)).toBe(true);
    expect(Object.isFrozen(call.body)).toBe(true);
    for (const part of [input, input.params, body, body.payment_details]) expect(Object.isFrozen(part)).toBe(false);
    // Changing the input afterwards changes nothing of what was checked and will be sent.
    body.interval_count = -5;
    expect(call.body).toMatchObject({ interval_count: 2 });
    expect(JSON.parse(call.json!)).toMatchObject({ interval_count: 2 });
    expect(() => {
      (call.body as { interval_count: number }).interval_count = 9;
    }).toThrow(TypeError);
  });

  it('refuses a bad input naming every bad field, and prepares nothing', async () => {
    const error = await prepareCall(update, { params: { id: 0 }, body: { interval_count: 'two' } } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([
      ['params', 'id'],
      ['body', 'interval_count'],
    ]);
  });
});

describe('prepareCallWith', () => {
  it('prepares many lines with the schemas at hand, each with its own path and its own checked copy of the body', async () => {
    const op = await loadOperation(update);
    const schemas = await op.schemas();
    const prepare = (input: object) => prepareCallWith(op, op.version, schemas, input as never);
    const body = { interval_count: 2 };
    const calls = [1, 2, 3].map((id) => prepare({ params: { id }, body }));
    expect(calls.map((call) => call.path)).toEqual(['/subscriptions/1/', '/subscriptions/2/', '/subscriptions/3/']);
    expect(calls.map((call) => call.json)).toEqual(Array(3).fill('{"interval_count":2}'));
    expect(calls.map((call) => call.version)).toEqual(Array(3).fill('2024-04-01'));
    // Another body is checked for itself, and a bad one is refused on every line that brings it.
    expect(prepare({ params: { id: 4 }, body: { interval_count: 5 } }).body).toEqual({ interval_count: 5 });
    const bad = { interval_count: 'x' } as never;
    expect(() => prepare({ params: { id: 1 }, body: bad })).toThrow(/body\.interval_count/);
    expect(() => prepare({ params: { id: -1 }, body: bad })).toThrow(/params\.id.*body\.interval_count|body\.interval_count.*params\.id/);
  });
});

describe('send', () => {
  const servers: ReturnType<typeof createServer>[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

  it('sends a prepared call as it was prepared, without checking it again', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${text}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 't', retries: 0, checkResponses: false });
    // Prepared against looser schemas than the table's: the table would refuse this body.
    const loose = { body: z.object({ interval_count: z.string() }), response: z.unknown() };
    const op = await loadOperation(update);
    const call = prepareCallWith(op, op.version, loose, { params: { id: 1 }, body: { interval_count: 'two' } } as never);
    await expect(client.prepare(update, { params: { id: 1 }, body: { interval_count: 'two' } } as never)).rejects.toBeInstanceOf(ValidationError);
    await client.send(call);
    expect(seen).toEqual(['PATCH /api/admin/subscriptions/1/ {"interval_count":"two"}']);
    // Only a prepared call is sent: an object that merely looks like one is refused.
    await expect(client.send({ ...call } as never)).rejects.toThrow(/prepare\(\)/);
    expect(seen).toHaveLength(1);
    await client.close();
  });
});
