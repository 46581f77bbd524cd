// The floor for bulk work with no dependencies: the same PATCH requests as the CLI's --each run,
// from node:http at the same concurrency over one keep-alive agent, each answer printed as the
// same JSON line.
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';

const { STORE_ADMIN_BASE_URL: base, STORE_ADMIN_TOKEN: token, BENCH_IDS: idsFile, BENCH_CONCURRENCY } = process.env;
const ids = readFileSync(idsFile, 'utf8').split('\n').filter(Boolean);
const concurrency = Number(BENCH_CONCURRENCY);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const body = JSON.stringify({ interval_count: 2 });
const headers = {
  authorization: `Bearer ${token}`,
  'x-store-api-version': '2024-04-01',
  accept: 'application/json',
  'content-type': 'application/json',
  'content-length': Buffer.byteLength(body),
};

function patch(id) {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/api/admin/subscriptions/${id}/`, { method: 'PATCH', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, data: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let next = 0;
async function worker() {
  while (next < ids.length) {
    const id = ids[next++];
    const { status, data } = await patch(id);
    process.stdout.write(`${JSON.stringify({ input: [id], ok: true, status, data })}\n`);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
agent.destroy();
