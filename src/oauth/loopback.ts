// The loopback listener an app login waits on: http://127.0.0.1:<port>/callback, where the store
// sends the browser back. It takes one callback carrying this login's state, holds the browser's
// request open until the login knows how it ended (so the tab can say), and answers anything else
// with a 404 that changes nothing. A callback with another state is refused with a 400 and the wait
// goes on: any web page can make the browser fetch this URL, and it must not end the login. So is
// one with no state, unless it names this store as the platform's callback does (`store`, or
// `shop`): only then is it taken, so the login can say the store sent no state back.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StoreAdminError } from '../api/errors.js';
import { tabPage } from './tab-page.js';

export const CALLBACK_PATH = '/callback';

export interface Callback {
  params: URLSearchParams;
  /** Answers the browser's tab with a short page and lets the listener close. */
  answer(status: number, html: string): Promise<void>;
}

export interface Listener {
  redirectUri: string;
  /** The first callback with this login's state: a GET of /callback carrying `code` or `error`. */
  callback: Promise<Callback>;
  close(): Promise<void>;
}

export interface Expected {
  /** This login's state. */
  state: string;
  /** The host the login was started at (`shop.example.com`, `127.0.0.1:8080`). */
  storeHost: string;
  /** A callback with another state was refused. */
  onForged(): void;
  /** A callback with no state that does not name this store was refused; `named` is the store it named, if any. */
  onStateless(named: string | undefined): void;
}

export async function listenForCallback(port: number, { state, storeHost, onForged, onStateless }: Expected): Promise<Listener> {
  let deliver!: (callback: Callback) => void;
  const callback = new Promise<Callback>((resolve) => (deliver = resolve));
  let taken = false;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const isCallback = req.method === 'GET' && url.pathname === CALLBACK_PATH && (url.searchParams.has('code') || url.searchParams.has('error'));
    if (taken || !isCallback) return send(res, 404, 'Not found.', 'text/plain; charset=utf-8');
    if (url.searchParams.has('state') && url.searchParams.get('state') !== state) {
      onForged();
      return send(res, 400, FORGED_PAGE, 'text/html; charset=utf-8');
    }
    // A store that sends no state back cannot be told from a forger: the login ends on such an
    // answer, saying so, only where it names this store as the platform's callback does; any other
    // is ignored (any page can send `?code=x`), and the wait's end mentions it.
    if (!url.searchParams.has('state')) {
      const named = (url.searchParams.get('store') ?? url.searchParams.get('shop'))?.trim().toLowerCase() || undefined;
      if (named !== storeHost.toLowerCase()) {
        onStateless(named);
        return send(res, 400, FORGED_PAGE, 'text/html; charset=utf-8');
      }
    }
    taken = true;
    deliver({ params: url.searchParams, answer: (status, html) => send(res, status, html, 'text/html; charset=utf-8') });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StoreAdminError(`Port ${port} on 127.0.0.1 is in use: choose another with --redirect-port (and list its redirect URI in the app's Redirect URLs)`)
          : new StoreAdminError(`Cannot listen on 127.0.0.1:${port} for the store's answer: ${error.message}`),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}${CALLBACK_PATH}`,
    callback,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Every answer was awaited: what is still open is a browser's spare connection.
        server.closeAllConnections();
      }),
  };
}

const FORGED_PAGE = tabPage(
  false,
  'The login was refused',
  "This answer did not carry the state of the login in progress, so it did not come from it: it was ignored, and the login still waits for the store's answer.",
);

function send(res: ServerResponse, status: number, body: string, type: string): Promise<void> {
  return new Promise((resolve) => {
    res.writeHead(status, {
      'content-type': type,
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      connection: 'close',
    });
    res.end(body, () => resolve());
  });
}
