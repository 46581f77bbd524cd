// Shared test fixtures: a sandbox on an ephemeral port and clients pointed at it.
import { afterAll, beforeAll } from 'vitest';
import { createClient, type ClientOptions, type StoreClient } from '../src/api/client.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/server.js';

export const FULL_TOKEN = 'test-full-token';

/** Starts a sandbox for the enclosing describe block and stops it afterwards. */
export function useSandbox(options: SandboxOptions = {}) {
  const ctx = {} as { sandbox: Sandbox; client: StoreClient; clientWith(options?: Partial<ClientOptions>): StoreClient };
  const clients: StoreClient[] = [];
  beforeAll(async () => {
    ctx.sandbox = await startSandbox({ token: FULL_TOKEN, ...options });
    ctx.clientWith = (overrides = {}) => {
      const client = createClient({ baseUrl: ctx.sandbox.url, token: FULL_TOKEN, ...overrides });
      clients.push(client);
      return client;
    };
    ctx.client = ctx.clientWith();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await ctx.sandbox.close();
  });
  return ctx;
}

/** A raw request, as curl would send it, for the server's own error paths. */
export async function raw(
  sandbox: Sandbox,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: string } = {},
) {
  const response = await fetch(`${sandbox.url}/api/admin${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}
