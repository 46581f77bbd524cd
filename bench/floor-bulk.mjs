// The floor for bulk work: the same PATCH requests as the CLI's --each run, from undici at the
// same concurrency over one keep-alive pool, each answer printed as a line.
import { Agent, request } from 'undici';

const { STORE_ADMIN_BASE_URL: base, STORE_ADMIN_TOKEN: token, BENCH_IDS: idsFile, BENCH_CONCURRENCY } = process.env;
const { readFileSync } = await import('node:fs');
const ids = readFileSync(idsFile, 'utf8').split('\n').filter(Boolean);
const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
const body = JSON.stringify({ interval_count: 2 });
let next = 0;
async function worker() {
  while (next < ids.length) {
    const id = ids[next++];
    const response = await request(`${base}/api/admin/subscriptions/${id}/`, {
      method: 'PATCH',
      dispatcher,
      body,
      headers: {
        authorization: `Bearer ${token}`,
        'x-store-api-version': '2024-04-01',
        accept: 'application/json',
        'content-type': 'application/json',
      },
    });
    const data = await response.body.json();
    process.stdout.write(`${JSON.stringify({ input: [id], ok: true, status: response.statusCode, data })}\n`);
  }
}
await Promise.all(Array.from({ length: Number(BENCH_CONCURRENCY) }, worker));
await dispatcher.close();
