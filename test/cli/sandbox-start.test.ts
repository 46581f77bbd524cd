// `store-admin sandbox start`: every flag of its help, exercised by starting the built CLI and
// talking to the store it runs over real HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOperation } from '../../src/api/operations.js';
import { BIN, runCli } from './run.js';

interface Running {
  url: string;
  stdout: string;
  stop(): Promise<{ code: number | null; stderr: string }>;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts the sandbox in the foreground and waits for the lines it prints once it listens. */
function start(flags: string[]): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', ...flags], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, stdio: 'pipe' });
    children.push(child);
    let stdout = '';
    let stderr = '';
    const exited = new Promise<{ code: number | null; stderr: string }>((done) => child.on('close', (code) => done({ code, stderr })));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^Sandbox store listening on (\S+)$/m.exec(stdout)?.[1];
      if (url && stdout.includes('Stop it with Ctrl-C.')) {
        resolve({
          url,
          stdout,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then(({ code }) => reject(new Error(`sandbox start exited ${code} before listening: ${stderr}`)));
  });
}

/** One request as curl would send it, with the operation's own version header. */
async function get(url: string, path: string, token: string) {
  const version = (await loadOperation(path === '/exports/types/' ? 'exportsTypesRetrieve' : 'categoriesRetrieve')).version;
  const response = await fetch(`${url}/api/admin${path}`, {
    headers: { authorization: `Bearer ${token}`, 'x-store-api-version': version },
  });
  await response.text();
  return response.status;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('sandbox start', () => {
  it('--port, --host and --token: listens where told and accepts only its token', async () => {
    const port = await freePort();
    const sandbox = await start(['--port', String(port), '--host', '127.0.0.1', '--token', 'dev-token']);
    expect(sandbox.url).toBe(`http://127.0.0.1:${port}`);
    expect(sandbox.stdout).toContain('Token: dev-token');
    expect(await get(sandbox.url, '/categories/1/', 'dev-token')).toBe(200);
    expect(await get(sandbox.url, '/categories/1/', 'other-token')).toBe(401);
    // Stopped cleanly, and by SIGTERM: 143, as every command stopped by it ends.
    const stopped = await sandbox.stop();
    expect(stopped.code).toBe(143);
    expect(stopped.stderr).toBe('Sandbox stopped.\n');
  });

  it('--port 0 picks a free port; --host 0.0.0.0 listens everywhere but prints a local URL', async () => {
    const sandbox = await start(['--port', '0', '--host', '0.0.0.0']);
    const url = new URL(sandbox.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(Number(url.port)).not.toBe(4010);
    // Without --token the token is random, and printed.
    const token = /^Token: (\S+)$/m.exec(sandbox.stdout)?.[1];
    expect(token).toMatch(/^sbx_[0-9a-f]{32}$/);
    expect(await get(sandbox.url, '/exports/types/', token!)).toBe(200);
    await sandbox.stop();
  });

  it('--scoped-token (repeatable): each token gets exactly its scopes', async () => {
    const sandbox = await start(['--port', '0', '--token', 'full', '--scoped-token', 'ro=exports:read', '--scoped-token', 'cat=catalogue:read']);
    expect(await get(sandbox.url, '/exports/types/', 'ro')).toBe(200);
    expect(await get(sandbox.url, '/categories/1/', 'ro')).toBe(403);
    expect(await get(sandbox.url, '/categories/1/', 'cat')).toBe(200);
    expect(await get(sandbox.url, '/exports/types/', 'cat')).toBe(403);
    expect(await get(sandbox.url, '/categories/1/', 'full')).toBe(200);
    await sandbox.stop();
  });

  it('--faults misbehaves as told, and --seed repeats the same draws', async () => {
    const always = await start(['--port', '0', '--token', 't', '--faults', 'error=1:502']);
    expect(always.stdout).toContain('Faults: error=1:502 (seed 1)');
    expect(await get(always.url, '/categories/1/', 't')).toBe(502);
    await always.stop();

    const statuses = async (seed: string) => {
      // Without the rate limit, which would answer some of these 16 quick requests 429.
      const sandbox = await start(['--port', '0', '--token', 't', '--faults', 'error=0.5:503,rate=0', '--seed', seed]);
      expect(sandbox.stdout).toContain(`Faults: error=0.5:503,rate=0 (seed ${seed})`);
      const seen: number[] = [];
      for (let i = 0; i < 16; i++) seen.push(await get(sandbox.url, '/categories/1/', 't'));
      await sandbox.stop();
      return seen;
    };
    const first = await statuses('7');
    expect(new Set(first)).toEqual(new Set([200, 503]));
    expect(await statuses('7')).toEqual(first);
    expect(await statuses('8')).not.toEqual(first);
  });

  it('--oauth-client-secret and --oauth-redirect-uri (repeatable): the partner app signs in with them', async () => {
    const extra = ['http://127.0.0.1:45001/callback', 'http://localhost:45002/cb'];
    const sandbox = await start(['--port', '0', '--oauth-client-secret', 'my-secret', ...extra.flatMap((uri) => ['--oauth-redirect-uri', uri])]);
    expect(sandbox.stdout).toContain('Partner app: client id sandbox-app, client secret as given');
    expect(sandbox.stdout).not.toContain('my-secret');
    expect(sandbox.stdout).toContain(`  redirect URIs: http://127.0.0.1:8976/callback http://localhost:8976/callback ${extra.join(' ')}`);
    for (const uri of [...extra, 'http://127.0.0.1:45003/callback']) {
      const page = await fetch(`${sandbox.url}/oauth2/authorize/?response_type=code&client_id=sandbox-app&scope=orders:read&redirect_uri=${encodeURIComponent(uri)}`);
      await page.text();
      expect(page.status, uri).toBe(uri.endsWith('45003/callback') ? 400 : 200);
    }
    const exchange = (secret: string) =>
      fetch(`${sandbox.url}/oauth2/token/`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'sandbox-app', client_secret: secret, redirect_uri: extra[0]!, code: 'unknown' }),
      }).then((r) => r.json());
    expect(await exchange('sandbox-secret')).toMatchObject({ error: 'invalid_client' });
    expect(await exchange('my-secret')).toMatchObject({ error: 'invalid_grant' });
    await sandbox.stop();
  });

  it.each([
    [['--oauth-redirect-uri', 'not a url'], /^store-admin: --oauth-redirect-uri takes an absolute http\(s\) URL without a #fragment \(got "not a url"\)$/m],
    [['--port', '70000'], /^store-admin: --port takes 0 to 65535 \(got "70000"\)$/m],
    [['--seed', 'seven'], /^store-admin: --seed takes a whole number \(got "seven"\)$/m],
    [['--scoped-token', 'no-scopes'], /^store-admin: --scoped-token takes TOKEN=scope,scope \(got "no-scopes"\)$/m],
    [['--faults', 'error=2'], /^store-admin: --faults: error takes a share from 0 to 1 \(got "2"\)$/m],
    [['--size', '0'], /^store-admin: --size takes a number of orders from 1 to 100000 \(got "0"\)$/m],
  ])('refuses %j with one line and exit 2', async (flags, message) => {
    const r = await runCli(['sandbox', 'start', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('--size grows the store to that many orders, and a reset keeps them', async () => {
    // Orders are numbered down from the anchors': the seed's 60 reach 9945, 700 reach below 9400.
    const grown = await start(['--port', '0', '--token', 'dev', '--faults', 'rate=0', '--size', '700']);
    const seeded = await start(['--port', '0', '--token', 'dev', '--faults', 'rate=0']);
    const order = (url: string) => runCli(['orders', 'get', '9400', '--query', 'number'], { env: { STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: 'dev' } });
    expect((await order(grown.url)).stdout.trim()).toBe('"9400"');
    expect((await order(seeded.url)).code).toBe(1);
    expect((await runCli(['sandbox', 'reset', '--base-url', grown.url], { env: { STORE_ADMIN_TOKEN: 'dev' } })).code).toBe(0);
    expect((await order(grown.url)).stdout.trim()).toBe('"9400"');
    await Promise.all([grown.stop(), seeded.stop()]);
  });

  it("does not flood its console with the seeded webhook's failures: the first is told, then the switch-off", async () => {
    const sandbox = await start(['--port', '0', '--token', 'dev']);
    const env = { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: 'dev' };
    // Seeded webhook 1 subscribes to order.created at a host that never resolves: the four days
    // advanced make its delivery fail on every attempt of the schedule.
    expect((await runCli(['subscriptions', 'renew', '1', '--yes'], { env })).code).toBe(0);
    expect((await runCli(['sandbox', 'clock', 'advance', '4d'], { env })).code).toBe(0);
    const { stderr } = await sandbox.stop();
    const aboutHook1 = stderr.split('\n').filter((line) => line.startsWith('webhook 1'));
    expect(aboutHook1).toEqual([
      expect.stringMatching(/^webhook 1: order\.created failed \(hooks\.northwind-outfitters\.example is a reserved name that never resolves\), attempt 1; will retry\. Further failures of webhook 1 are not shown/),
      'webhook 1: order.created failed (hooks.northwind-outfitters.example is a reserved name that never resolves); webhook 1 switched off',
    ]);
  });

  it('says when the port is taken', async () => {
    const taken = await start(['--port', '0']);
    const port = new URL(taken.url).port;
    const r = await runCli(['sandbox', 'start', '--port', port]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^store-admin: Cannot start the sandbox on 127\\.0\\.0\\.1:${port}: the port is in use \\(try --port 0\\)$`, 'm'));
    await taken.stop();
  });
});

describe('the rate limit of a started sandbox', () => {
  it('is the platform\'s 4 per second per token, said at start; --faults rate=0 lifts it', async () => {
    const limited = await start(['--port', '0', '--token', 'tok']);
    expect(limited.stdout).toContain('Rate limit: 4 requests per second per token, as on the platform (--faults rate=0 lifts it)');
    const statuses = await Promise.all(Array.from({ length: 6 }, () => get(limited.url, '/exports/types/', 'tok')));
    expect(statuses.sort()).toEqual([200, 200, 200, 200, 429, 429]);
    await limited.stop();
    const free = await start(['--port', '0', '--token', 'tok', '--faults', 'rate=0']);
    expect(free.stdout).toContain('Rate limit: none (--faults rate=0)');
    const all = await Promise.all(Array.from({ length: 8 }, () => get(free.url, '/exports/types/', 'tok')));
    expect(all).toEqual(Array.from({ length: 8 }, () => 200));
    await free.stop();
  });
});
