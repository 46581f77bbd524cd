// A webhook receiver on a real socket for tests: records each request, and answers with the
// status the test chooses (at once, or when the test releases it).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryOutcome } from '../../src/sandbox/deliverer.js';
import { within } from '../helpers.js';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  json: any;
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** Resolves when `count` requests have arrived; fails if they have not within a deadline. */
  received(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** `answer` gives each request's status (or a promise of it), by its 0-based arrival number. */
export async function startReceiver(answer: (n: number, request: Received) => number | Promise<number>): Promise<Receiver> {
  const requests: Received[] = [];
  const waiting: { count: number; resolve: (r: Received[]) => void }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      json = undefined;
    }
    const request: Received = { method: req.method!, url: req.url!, headers: req.headers, rawHeaders: req.rawHeaders, body, json };
    const n = requests.push(request) - 1;
    for (const w of waiting.filter((w) => requests.length >= w.count)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(requests.slice());
    }
    const status = await answer(n, request);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ answered: status }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    received: (count) =>
      requests.length >= count
        ? Promise.resolve(requests.slice())
        : within(`${count} requests at the receiver`, new Promise((resolve) => waiting.push({ count, resolve })), {
            seen: () => `${requests.length}: ${requests.map((r) => `${r.method} ${r.url}`).join(', ')}`,
          }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Collects the sandbox's delivery outcomes; tests wait for the ones they expect. */
export function outcomeLog() {
  const list: DeliveryOutcome[] = [];
  const waiting: { test: (o: DeliveryOutcome[]) => boolean; resolve: () => void }[] = [];
  return {
    list,
    onDelivery(outcome: DeliveryOutcome) {
      list.push(outcome);
      for (const w of waiting.filter((w) => w.test(list))) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    },
    /** Resolves once the outcomes so far satisfy `test`; fails if they do not within a deadline. */
    until(test: (o: DeliveryOutcome[]) => boolean): Promise<DeliveryOutcome[]> {
      if (test(list)) return Promise.resolve(list.slice());
      const met = new Promise<DeliveryOutcome[]>((resolve) => waiting.push({ test, resolve: () => resolve(list.slice()) }));
      return within(`delivery outcomes that pass ${test}`, met, { seen: () => JSON.stringify(list) });
    },
  };
}

/** A status the test hands over later: the receiver waits on it. */
export function gate() {
  let open!: (status: number) => void;
  const promise = new Promise<number>((resolve) => (open = resolve));
  return { promise, open };
}
