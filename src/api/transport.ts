// The undici wire under ./http.ts, through undici's public API only: a dispatcher a program
// brings (a ProxyAgent, a MockAgent, a tuned pool), or a ProxyAgent for the proxy the
// environment names (./proxy.ts). Loaded only when one of those is in use: undici costs a
// command ~100 ms more to start than Node's own HTTP (`node -e "require('undici')"` against
// `node -e 0`, Node 20.20).
import type { Dispatcher } from 'undici';
import type { Wire } from './wire.js';

/** A wire over the dispatcher given, or else over a ProxyAgent of its own for the proxy given. */
export async function undiciWire(through: { dispatcher: Dispatcher } | { proxy: URL; connectTimeoutMs: number }): Promise<Wire> {
  const owned = 'proxy' in through ? await proxyAgent(through.proxy, through.connectTimeoutMs) : undefined;
  const dispatcher = owned ?? (through as { dispatcher: Dispatcher }).dispatcher;
  return {
    async request({ method, url, headers, body, signal }) {
      const response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        signal,
        // The pool's limits are the only ones: undici's own would cut a long download short.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      return { status: response.statusCode, headers: response.headers, body: response.body };
    },
    async close() {
      // A dispatcher a program brought is the program's to close.
      await owned?.close();
    },
  };
}

/** Tunnels every request through the proxy (CONNECT), https and http alike, so the proxy relays bytes it cannot read for https. */
async function proxyAgent(proxy: URL, connectTimeoutMs: number): Promise<Dispatcher> {
  const { ProxyAgent } = await import('undici');
  const timeout = { timeout: connectTimeoutMs };
  // Connecting to the proxy, and the TLS handshake with the host through the tunnel.
  return new ProxyAgent({ uri: proxy.href, proxyTls: timeout, requestTls: timeout });
}
