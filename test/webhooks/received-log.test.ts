// The listen log on disk: its entries held to their schema, the oldest one found by its field
// wherever the key sits in the line, and the retention that follows from it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendReceived, readReceived, type ReceivedDelivery } from '../../src/webhooks/received-log.js';

const dir = mkdtempSync(join(tmpdir(), 'store-admin-received-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const delivery = (id: string, at: string, body = '{}'): ReceivedDelivery => ({
  id,
  at,
  url: 'http://127.0.0.1:9000/hooks',
  headers: { 'content-type': 'application/json' },
  body,
  event_type: 'order.updated',
  event_id: null,
  status: 200,
});

describe('the listen log', () => {
  it('drops entries past 90 days, the oldest found by its date wherever the key sits in its line', async () => {
    const env = { STORE_ADMIN_CONFIG_DIR: join(dir, 'keyed') };
    mkdirSync(join(dir, 'keyed', 'webhooks'), { recursive: true });
    // A body of some size ahead of the date, as another version might write the line.
    const { at, ...rest } = delivery('rcv_old', new Date(Date.now() - 100 * 86_400_000).toISOString(), JSON.stringify({ note: 'x'.repeat(1000) }));
    writeFileSync(join(dir, 'keyed', 'webhooks', 'received.jsonl'), `${JSON.stringify({ ...rest, at })}\n`);
    await appendReceived(env, delivery('rcv_new', new Date().toISOString()));
    expect(readReceived(env).map((e) => e.id)).toEqual(['rcv_new']);
  });

  it('leaves out a line that is not a delivery, and keeps the others', async () => {
    const env = { STORE_ADMIN_CONFIG_DIR: join(dir, 'odd') };
    mkdirSync(join(dir, 'odd', 'webhooks'), { recursive: true });
    const good = delivery('rcv_good', new Date().toISOString());
    writeFileSync(join(dir, 'odd', 'webhooks', 'received.jsonl'), ['null', JSON.stringify({ ...good, id: 7 }), JSON.stringify(good), '{"id":"rcv_cut'].join('\n'));
    expect(readReceived(env)).toEqual([good]);
    expect(readFileSync(join(dir, 'odd', 'webhooks', 'received.jsonl'), 'utf8')).toContain('rcv_cut');
  });
});
