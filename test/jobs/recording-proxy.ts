// A pass-through in front of a sandbox that keeps each request it forwards (method, API path,
// JSON body): what a job sent, read where the store keeps no trace of it (a notification asked
// for), and what it did not send.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from '../cli/run.js';

export interface SentRequest {
  method: string;
  /** The path under /api/admin, without its query: `/subscriptions/1/cancel/`. */
  path: string;
  body: unknown;
}

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * Starts the proxy before the describe block's tests (after `sandbox()` is up) and stops it after
 * them. A request `proxy.failing` names (`GET /subscriptions/2/`) is answered 500 instead.
 */
export function useRecordingProxy(sandbox: () => Sandbox) {
  const proxy = { url: '', sent: [] as SentRequest[], failing: new Set<string>() };
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const url = new URL(req.url ?? '/', 'http://proxy');
    const text = body.toString('utf8');
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // kept as text
    }
    const sent = { method: req.method ?? 'GET', path: url.pathname.replace(/^\/api\/admin/, ''), body: parsed };
    proxy.sent.push(sent);
    if (proxy.failing.has(`${sent.method} ${sent.path}`)) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"A server error occurred."}');
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name))) as Record<string, string>;
    const answer = await fetch(`${sandbox().url}${req.url}`, { method: req.method, headers, ...(body.length > 0 ? { body } : {}) });
    const answered = Buffer.from(await answer.arrayBuffer());
    const kept = [...answer.headers].filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name));
    res.writeHead(answer.status, Object.fromEntries(kept));
    res.end(answered);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return proxy;
}

/** A sandbox for the describe block with the proxy in front of it, a config dir, and the built CLI run through the proxy. */
export function useProxiedSandbox() {
  const ctx = useSandbox();
  const proxy = useRecordingProxy(() => ctx.sandbox);
  const dir = useConfigDir();
  const cli = (...args: string[]) => runCli(args, { env: { STORE_ADMIN_BASE_URL: proxy.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir } });
  return { ctx, proxy, dir, cli };
}
