// A store on 127.0.0.1 whose export 7 is available, for tests of where and how its file lands: its
// download answers a signed link on the same server, and `file` answers that link as the test needs.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

/** The store's URL, once it listens; the server closes after the calling file's tests. */
export function useExportStore(file: (req: IncomingMessage, res: ServerResponse) => void): () => Promise<string> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/media/')) return file(req, res);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/api/admin/exports/7/download/') return res.end(JSON.stringify({ url: `${origin}/media/orders.csv?signature=x` }));
    res.end(JSON.stringify({ id: 7, status: 'available', type: 'order_list' }));
  });
  const listening = new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return () => listening;
}
