// A stand-in store for the memory row of npm run bench: BENCH_ORDERS orders (default 10,000) in
// cursor pages of BENCH_PAGE (default 500), each order about 1.5 KB of JSON, made as it is asked
// for so that the store's own memory does not count. Prints its URL once it listens.
import { createServer } from 'node:http';

const total = Number(process.env.BENCH_ORDERS ?? 10_000);
const perPage = Number(process.env.BENCH_PAGE ?? 500);

const order = (n) => ({
  number: String(10_000 + n),
  status: 'open',
  payment_status: 'paid',
  fulfillment_status: 'unfulfilled',
  currency: 'USD',
  date_placed: '2026-02-01T10:00:00Z',
  created_at: '2026-02-01T10:00:00Z',
  updated_at: '2026-02-01T10:00:00Z',
  total_excl_tax: '40.00',
  total_incl_tax: '48.00',
  total_tax: '8.00',
  shipping_incl_tax: '5.00',
  total_outstanding: '0.00',
  tags: ['wholesale', 'priority'],
  user: { id: n, email: `customer${n}@example.com`, first_name: 'Ada', last_name: 'Lovelace' },
  shipping_address: { first_name: 'Ada', last_name: 'Lovelace', line1: `${n} Main Street`, line4: 'Springfield', postcode: '12345', country: 'US' },
  lines: [1, 2].map((i) => ({ id: n * 10 + i, product_id: i, product_title: `Product ${i}`, sku: `SKU-${i}`, quantity: i, price_excl_tax: '20.00', price_incl_tax: '24.00' })),
});

const server = createServer((request, response) => {
  const url = new URL(request.url, `http://${request.headers.host}`);
  const page = Number(url.searchParams.get('cursor') ?? 0);
  const first = page * perPage;
  const results = Array.from({ length: Math.max(0, Math.min(perPage, total - first)) }, (_, i) => order(first + i + 1));
  const next = first + perPage < total ? `http://${request.headers.host}/api/admin/orders/?cursor=${page + 1}` : null;
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ next, previous: null, results }));
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
