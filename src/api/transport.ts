// The client's exchange over an undici dispatcher that a program brings (a ProxyAgent, a
// MockAgent, a tuned pool), with the same rules as Node's own HTTP in ./http.ts: one timer bounds
// each whole attempt, answers are read up to a size limit, a download's body is handed over.
// Only the two parts of undici this needs are imported: its main entry also loads fetch,
// WebSocket and caching.
import requestOn from 'undici/lib/api/api-request.js';
import type { Dispatcher } from 'undici';
import { ExchangeError, headerList, type Answer, type Exchange, type HttpPool, type OpenAnswer } from './http.js';

export function undiciExchange(dispatcher: Dispatcher): HttpPool {
  async function start(exchange: Omit<Exchange, 'maxBytes'>, extra: { bodyTimeout?: number } = {}) {
    const url = typeof exchange.url === 'string' ? new URL(exchange.url) : exchange.url;
    const { origin, pathname, search } = url;
    const controller = new AbortController();
    let status: number | undefined;
    const timer = setTimeout(
      () => controller.abort(new ExchangeError(`no complete answer within ${exchange.timeoutMs} ms`, 'TIMEOUT', status)),
      exchange.timeoutMs,
    );
    const onAbort = () => controller.abort(new ExchangeError('aborted', 'ABORTED', status));
    exchange.signal?.addEventListener('abort', onAbort, { once: true });
    if (exchange.signal?.aborted) onAbort();
    const done = () => {
      clearTimeout(timer);
      exchange.signal?.removeEventListener('abort', onAbort);
    };
    const failure = (error: unknown) => (controller.signal.aborted ? controller.signal.reason : error);
    try {
      const response = await requestOn.call(dispatcher, {
        origin,
        path: `${pathname}${search}`,
        method: exchange.method as Dispatcher.HttpMethod,
        // The same list as over Node's own HTTP: the framing headers are the exchange's alone.
        headers: headerList(exchange, url.host),
        body: exchange.body,
        signal: controller.signal,
        ...extra,
      });
      status = response.statusCode;
      return { response, done, failure, controller };
    } catch (error) {
      done();
      throw failure(error);
    }
  }

  return {
    async send(exchange): Promise<Answer> {
      const { response, done, failure, controller } = await start(exchange);
      try {
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > exchange.maxBytes) {
            response.body.destroy();
            throw new ExchangeError(`the answer is larger than ${exchange.maxBytes} bytes`, 'TOO_LARGE', response.statusCode);
          }
          chunks.push(chunk);
        }
        return { status: response.statusCode, headers: response.headers, text: Buffer.concat(chunks, size).toString('utf8') };
      } catch (error) {
        if (error instanceof ExchangeError || controller.signal.aborted) throw failure(error);
        throw new ExchangeError('the answer was cut short', 'CUT_SHORT', response.statusCode);
      } finally {
        done();
      }
    },
    async open(exchange): Promise<OpenAnswer> {
      // undici's own body timeout bounds each pause of a download, which may take long in all.
      const { response, done } = await start(exchange, { bodyTimeout: exchange.timeoutMs });
      done();
      return { status: response.statusCode, headers: response.headers, body: response.body, done: () => {} };
    },
    async close() {
      // The dispatcher belongs to the program that brought it.
    },
  };
}
