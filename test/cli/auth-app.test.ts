// `auth login --app` from scripts, as CI or a headless machine runs it: the built CLI against a
// sandbox over real HTTP, the browser played by a form-submitting stand-in (BROWSER=…) or by a
// script that reads the URL --no-browser prints. Refusals (a forged state, another store, Deny, a
// wrong secret), the wait's limit, a taken port, Ctrl-C in a real terminal, what status, a 403
// and logout say, and a sweep for the secrets in everything the runs left behind.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createServer as createHttpServer, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN_PATH } from '../../src/api/oauth.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { until } from '../helpers.js';
import { freePort, runStandIn, STAND_IN, startLogin } from './app-login.js';
import { runCli, useConfigDir, type Result } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

const SECRET = 'app-secret-for-tests-7d41c9';

describe('auth login --app (scripted)', () => {
  let sandbox: Sandbox;
  let port: number;
  const root = useConfigDir();
  let n = 0;
  const freshDir = () => join(root, `cfg-${n++}`);
  /** Every output of every run, and every token issued, for the sweep at the end. */
  const outputs: string[] = [];
  const tokens = new Set<string>([SECRET]);
  const keep = <T extends { stdout: string; stderr: string }>(result: T): T => {
    outputs.push(result.stdout, result.stderr);
    return result;
  };
  const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  const remember = (dir: string) => {
    const profile = config(dir).profiles.default;
    for (const secret of [profile.token, profile.refreshToken]) if (secret) tokens.add(secret);
    return profile;
  };
  const cli = async (dir: string, args: string[]): Promise<Result> => keep(await runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir } }));
  const argvs: string[][] = [];
  const login = (dir: string, extra: string[] = [], env: Record<string, string> = {}, stdin = '') => {
    const run = startLogin(['--client-id', 'sandbox-app', '--base-url', sandbox.url, '--redirect-port', String(port), ...extra], { STORE_ADMIN_CONFIG_DIR: dir, ...env }, stdin);
    argvs.push(run.argv);
    return run;
  };
  const withStandIn = (env: Record<string, string> = {}) => ({
    BROWSER: STAND_IN,
    STAND_IN_LOG: join(root, `stand-in-${n}.log`),
    STORE_ADMIN_CLIENT_SECRET: SECRET,
    ...env,
  });

  /** The stand-in's log once it holds `line`: it runs on its own, and may finish after the CLI. */
  const standInLog = (line: string) => {
    const file = join(root, `stand-in-${n}.log`);
    const text = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    return until(`the stand-in's log to say ${JSON.stringify(line)}`, () => text().includes(line) && text(), { everyMs: 20, seen: text });
  };

  beforeAll(async () => {
    port = await freePort();
    sandbox = await startSandbox({ oauth: { clientSecret: SECRET, redirectUris: [`http://127.0.0.1:${port}/callback`] } });
  });
  afterAll(() => sandbox.close());

  it('BROWSER stand-in approves every scope: the profile records the app login, and the next command works', async () => {
    const dir = freshDir();
    const started = Date.now();
    const run = login(dir, [], withStandIn());
    const end = keep(await run.exited);
    const ended = Date.now();
    expect(end.code, end.stderr).toBe(0);
    expect(end.stderr.split('\n')[0]).toBe(`Redirect URI: http://127.0.0.1:${port}/callback (it must be listed in the app's Redirect URLs)`);
    expect(end.stderr).toContain(`Opened the store's consent page with ${STAND_IN}`);
    expect(JSON.parse(end.stdout)).toMatchObject({ profile: 'default', active: true, login: 'app', client_id: 'sandbox-app', not_granted: [], storage: 'file' });
    const profile = remember(dir);
    expect(profile).toMatchObject({ baseUrl: sandbox.url, clientSecret: SECRET, app: { clientId: 'sandbox-app' } });
    expect(profile.token).toMatch(/^sbx_app_/);
    expect(profile.refreshToken).toMatch(/^sbx_refresh_/);
    // Dated by the login itself: between the run's start and its end.
    const loggedInAt = Date.parse(profile.app.loggedInAt);
    expect(loggedInAt).toBeGreaterThanOrEqual(started);
    expect(loggedInAt).toBeLessThanOrEqual(ended);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    // The URL asked for exactly the scopes the operation table names, and the store granted them.
    const asked = new URL(await run.url).searchParams.get('scope')!.split(' ');
    expect(profile.app.scopes).toEqual(asked);
    expect(asked).toContain('orders:write');
    const next = await cli(dir, ['orders', 'fulfillment-orders', '10001']);
    expect(next.code, next.stderr).toBe(0);
    const status = await cli(dir, ['auth', 'status', '--json']);
    expect(status.json()).toMatchObject({ login: 'app', client_id: 'sandbox-app', scopes: asked, not_covered: [], authenticated: true });
  });

  it('--no-browser from a script: the URL is printed, the script approves, the login completes', async () => {
    const dir = freshDir();
    // The secret from stdin this time.
    const run = login(dir, ['--no-browser', '--client-secret-file', '-'], {}, `${SECRET}\n`);
    const url = await run.url;
    expect(url.startsWith(`${sandbox.url}/oauth2/authorize/?`)).toBe(true);
    expect(await runStandIn(url)).toBe(0);
    const end = keep(await run.exited);
    expect(end.code, end.stderr).toBe(0);
    // As the README tells a script to find it: the line after the one that says "open this URL".
    const lines = end.stderr.split('\n');
    expect(lines[lines.findIndex((line) => line.includes('open this URL')) + 1]?.trim()).toBe(url);
    remember(dir);
    expect((await cli(dir, ['categories', 'get', '1'])).code).toBe(0);
  });

  it('a grant without orders:read: status lists what it does not cover, and a 403 hints at the missing scope', async () => {
    const dir = freshDir();
    const run = login(dir, ['--scopes', 'exports:read,catalogue:read orders:read'], withStandIn({ STAND_IN_KEEP: 'exports:read catalogue:read' }));
    const end = keep(await run.exited);
    expect(end.code, end.stderr).toBe(0);
    expect(JSON.parse(end.stdout)).toMatchObject({ scopes: ['exports:read', 'catalogue:read'], not_granted: ['orders:read'] });
    expect(end.stderr).toContain('warning: the store did not grant orders:read');
    remember(dir);
    const refused = await cli(dir, ['orders', 'fulfillment-orders', '10001']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('store-admin: You do not have permission to perform this action. (HTTP 403)');
    expect(refused.stderr).toContain(
      'hint: This command needs a token with the scope orders:read; the app login of profile "default" was granted exports:read catalogue:read, without orders:read. ' +
        'Log in again and approve it: store-admin auth login --app --client-id sandbox-app --profile default',
    );
    expect((await cli(dir, ['categories', 'get', '1'])).code).toBe(0);
    const status = await cli(dir, ['auth', 'status', '--json']);
    const uncovered = status.json().not_covered as { command: string; missing: string[] }[];
    expect(uncovered).toContainEqual({ command: 'orders fulfillment-orders', missing: ['orders:read'] });
    expect(uncovered).toContainEqual({ command: 'fulfillment-orders cancellation-request-reject', missing: ['fulfillment_service:write', 'fulfillment_orders:write'] });
    expect(uncovered.map((u) => u.command)).not.toContain('categories get');
    const table = await cli(dir, ['auth', 'status', '-o', 'table']);
    expect(table.stdout).toContain('  - Login: the partner app sandbox-app, on ');
    expect(table.stdout).toContain('  - Granted scopes: exports:read catalogue:read');
    expect(table.stdout).toMatch(/^      needs orders:read: .*orders fulfillment-orders/m);
  });

  it('Deny: exit 4, "the store refused the app\'s access", nothing saved', async () => {
    const dir = freshDir();
    const end = keep(await login(dir, [], withStandIn({ STAND_IN_DECISION: 'deny' })).exited);
    expect(end.code).toBe(4);
    expect(end.stderr).toContain("store-admin: The store refused the app's access (Deny was chosen); nothing was saved");
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a forged callback with the wrong state is refused with a 400 and changes nothing: the login goes on', async () => {
    const dir = freshDir();
    const exchanges = sandbox.counters.oauth.exchanges;
    const run = login(dir, ['--no-browser'], { STORE_ADMIN_CLIENT_SECRET: SECRET });
    const url = await run.url;
    const forged = await fetch(`http://127.0.0.1:${port}/callback?store=${new URL(sandbox.url).host}&code=stolen-code&state=guessed`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('it was ignored, and the login still waits');
    expect(sandbox.counters.oauth.exchanges).toBe(exchanges);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    // The person's own approval still completes the login.
    expect(await runStandIn(url)).toBe(0);
    const end = keep(await run.exited);
    expect(end.code, end.stderr).toBe(0);
    expect(end.stderr).toContain("warning: refused an answer that did not carry this login's state (it did not come from this login); still waiting");
    expect(sandbox.counters.oauth.exchanges).toBe(exchanges + 1);
    remember(dir);
  });

  it('a store reached at another host names its platform domain: the login goes on, both names are kept, and calls go to the URL given', async () => {
    const dir = freshDir();
    const end = keep(await login(dir, [], withStandIn({ STORE_ADMIN_CLIENT_SECRET: SECRET })).exited);
    expect(end.code, end.stderr).toBe(0);
    // The sandbox names itself by its platform domain, not by the 127.0.0.1 address it was reached at.
    expect(end.stderr).toContain(`The store names itself shop.northwind-outfitters.example (its platform domain); commands go to ${sandbox.url}, as given.`);
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, { baseUrl: string; app?: { storeDomain?: string } }> };
    const profile = Object.values(saved.profiles)[0]!;
    expect(profile.baseUrl).toBe(sandbox.url);
    expect(profile.app?.storeDomain).toBe('shop.northwind-outfitters.example');
    remember(dir);
  });

  it("an answer without a state that names the store ends the login at once, saying so; one that does not is ignored, and the login goes on", async () => {
    const dir = freshDir();
    const run = login(dir, ['--no-browser'], { STORE_ADMIN_CLIENT_SECRET: SECRET });
    await run.url;
    const exchanges = sandbox.counters.oauth.exchanges;
    // Any page or local program can send these: they must not end the login.
    for (const query of ['code=x', 'error=access_denied', 'store=elsewhere.example&code=x']) {
      expect((await fetch(`http://127.0.0.1:${port}/callback?${query}`)).status, query).toBe(400);
    }
    const answer = await fetch(`http://127.0.0.1:${port}/callback?store=${new URL(sandbox.url).host}&code=abc`);
    expect(answer.status).toBe(400);
    const end = keep(await run.exited);
    expect(end.code).toBe(4);
    expect(end.stderr).toContain("store-admin: The store's answer carried no state, so it cannot be told from one sent by someone else; nothing was saved");
    expect(end.stderr.match(/warning: ignored an answer without a state that does not name 127\.0\.0\.1:\d+ as its store; still waiting/g)).toHaveLength(3);
    expect(sandbox.counters.oauth.exchanges).toBe(exchanges);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('the wait ends on time after an ignored answer without a state, and says what it named', async () => {
    const dir = freshDir();
    // The wait starts as the URL is printed; the ignored answer is sent at once, well inside it.
    const run = login(dir, ['--no-browser'], { STORE_ADMIN_CLIENT_SECRET: SECRET, STORE_ADMIN_LOGIN_WAIT: '3' });
    await run.url;
    expect((await fetch(`http://127.0.0.1:${port}/callback?store=shop.northwind-outfitters.example&code=abc`)).status).toBe(400);
    const end = keep(await run.exited);
    expect(end.code).toBe(1);
    expect(end.stderr).toContain('store-admin: No answer from the store within 3 seconds; nothing was saved');
    expect(end.stderr.replace(/\s+/g, ' ')).toMatch(
      /hint: An answer without a state arrived and was ignored: it named the store shop\.northwind-outfitters\.example, not 127\.0\.0\.1:\d+\..*--base-url https:\/\/<the domain it named>/,
    );
  });

  it('any other request to the listener is a 404 that changes nothing', async () => {
    const dir = freshDir();
    const run = login(dir, ['--no-browser'], { STORE_ADMIN_CLIENT_SECRET: SECRET });
    const url = await run.url;
    for (const [method, path] of [['GET', '/'], ['GET', '/favicon.ico'], ['GET', '/callback'], ['GET', '/callback?state=x'], ['POST', '/callback?code=x'], ['GET', '/callbackx?code=x']]) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { method });
      expect([method, path, response.status]).toEqual([method, path, 404]);
    }
    expect(await runStandIn(url)).toBe(0);
    const end = keep(await run.exited);
    expect(end.code, end.stderr).toBe(0);
    remember(dir);
  });

  it('a wrong client secret: exit 4 from the exchange, the tab told, nothing saved', async () => {
    const dir = freshDir();
    const end = keep(await login(dir, [], withStandIn({ STORE_ADMIN_CLIENT_SECRET: 'not-the-secret-at-all' })).exited);
    expect(end.code).toBe(4);
    expect(end.stderr).toContain("store-admin: The store rejected the app's client id or secret (Client authentication failed.)");
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    expect(await standInLog('GET redirect: 502 The login failed')).toContain('GET redirect: 502 The login failed');
  });

  it('a login that cannot be saved tells the tab too (a config dir others can read)', async () => {
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const end = keep(await login(dir, ['--insecure-storage'], withStandIn()).exited);
    expect(end.code).toBe(2);
    expect(end.stderr).toContain('can be read by other users');
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    expect(await standInLog('GET redirect: 502 The login failed')).toContain('GET redirect: 502 The login failed');
  });

  it('no answer within the wait: exit 1 and a hint', async () => {
    const dir = freshDir();
    const end = keep(await login(dir, ['--no-browser'], { STORE_ADMIN_CLIENT_SECRET: SECRET, STORE_ADMIN_LOGIN_WAIT: '1' }).exited);
    expect(end.code).toBe(1);
    expect(end.stderr).toContain('store-admin: No answer from the store within 1 second; nothing was saved');
    // Said as it is: not "at most 0 minutes".
    expect(end.stderr).toContain("Waiting for the store's answer (at most 1 second; Ctrl-C to stop)…");
    expect(end.stderr).toMatch(/^hint: Run the login again and approve the app in the browser/m);
  });

  it('the port in use: one line naming --redirect-port, exit 1', async () => {
    // The app's registered port, taken by another program: the store would accept the link.
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    const busy = port;
    const dir = freshDir();
    const end = keep(await startLogin(['--client-id', 'sandbox-app', '--base-url', sandbox.url, '--redirect-port', String(busy)], { STORE_ADMIN_CONFIG_DIR: dir, STORE_ADMIN_CLIENT_SECRET: SECRET }).exited);
    await new Promise((resolve) => taken.close(resolve));
    expect(end.code).toBe(1);
    expect(end.stderr.split('\n').filter((line) => line.startsWith('store-admin:'))).toEqual([
      `store-admin: Port ${busy} on 127.0.0.1 is in use: choose another with --redirect-port (and list its redirect URI in the app's Redirect URLs)`,
    ]);
  });

  it.each<[string[], Record<string, string>, RegExp, string]>([
    [[], {}, /^store-admin: No client secret given$/m, 'no secret and no terminal'],
    [['--client-secret-file', '/nonexistent/secret'], {}, /--client-secret-file/, 'an unreadable secret file'],
    [['--scopes', 'orders:read bogus'], { STORE_ADMIN_CLIENT_SECRET: SECRET }, /^store-admin: --scopes: "bogus" is not a scope/m, 'a bad scope'],
    [['--scopes', 'orders:reed'], { STORE_ADMIN_CLIENT_SECRET: SECRET }, /^store-admin: --scopes: "orders:reed" is not a scope \(scopes look like orders:read or orders:write\); did you mean orders:read\?$/m, 'a misspelt scope'],
    [['--scopes', 'order:write'], { STORE_ADMIN_CLIENT_SECRET: SECRET }, /^store-admin: --scopes: "order:write" is not one of the platform's scopes; did you mean orders:write\?$/m, 'a scope the platform does not have'],
    [['--redirect-port', '0'], { STORE_ADMIN_CLIENT_SECRET: SECRET }, /^store-admin: --redirect-port takes 1 to 65535 \(got "0"\)$/m, 'port 0'],
    [['--with-token'], { STORE_ADMIN_CLIENT_SECRET: SECRET }, /^store-admin: --with-token and --app contradict each other$/m, '--with-token'],
  ])('refuses %j with exit 2 before listening (%s)', async (extra, env, message) => {
    const dir = freshDir();
    const end = keep(await login(dir, extra, env).exited);
    expect(end.code).toBe(2);
    expect(end.stderr).toMatch(message);
    expect(end.stderr).not.toContain('/oauth2/authorize/');
  });

  it.each([
    [['--client-id', 'no-such-app'], port => port, /Unknown app — No app with the client id "no-such-app" is installed on this store\./],
    [[], async () => freePort(), /Redirect URL not registered — "http:\/\/127\.0\.0\.1:\d+\/callback" is not one of the app's Redirect URLs/],
  ] as [string[], (port: number) => number | Promise<number>, RegExp][])(
    'a link the store refuses (%j) ends the login at once with what its page says: no secret asked, no browser, no wait',
    async (extra, portOf, said) => {
      const dir = freshDir();
      const redirectPort = await portOf(port);
      // No secret given and no terminal: had the login gone on, it would have stopped there (exit 2) instead.
      const run = startLogin(['--client-id', 'sandbox-app', '--base-url', sandbox.url, '--redirect-port', String(redirectPort), ...extra], { STORE_ADMIN_CONFIG_DIR: dir, BROWSER: STAND_IN });
      const end = keep(await run.exited);
      expect(end.code, end.stderr).toBe(4);
      const [message, hint] = end.stderr.split('\n').filter((line) => /^(store-admin|hint):/.test(line));
      expect(message).toMatch(/^store-admin: The store refused the login before anyone could approve it \(400: /);
      expect(message).toMatch(said);
      expect(message).toMatch(/; nothing was saved$/);
      expect(hint).toBe("hint: Check --client-id against the app's settings, and that the redirect URI printed above is one of its Redirect URLs (--redirect-port picks the port)");
      expect(end.stderr).not.toContain('Waiting for the store');
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
    },
  );

  it('the app flags need --app, and --app needs --client-id', async () => {
    const dir = freshDir();
    const stray = await cli(dir, ['auth', 'login', '--client-id', 'x', '--base-url', sandbox.url]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('store-admin: --client-id goes with --app');
    const noId = await cli(dir, ['auth', 'login', '--app', '--base-url', sandbox.url]);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('store-admin: auth login --app needs --client-id ID');
  });

  it('logout forgets the token, refresh token and client secret; a token login replaces an app login whole', async () => {
    const dir = freshDir();
    expect(keep(await login(dir, [], withStandIn()).exited).code).toBe(0);
    remember(dir);
    const out = await cli(dir, ['auth', 'logout']);
    expect(out.stderr).toContain('Forgot the app login\'s token, refresh token and client secret of profile "default"');
    expect(config(dir).profiles.default).toEqual({ baseUrl: sandbox.url });
    expect(keep(await login(dir, [], withStandIn()).exited).code).toBe(0);
    const again = remember(dir);
    const tokenLogin = keep(await runCli(['auth', 'login', '--base-url', sandbox.url, '--with-token', '--skip-verify'], { env: { STORE_ADMIN_CONFIG_DIR: dir }, stdin: 'a-dashboard-token-1234\n' }));
    expect(tokenLogin.code).toBe(0);
    expect(config(dir).profiles.default).toEqual({ baseUrl: sandbox.url, token: 'a-dashboard-token-1234' });
    expect(again.token).not.toBe('a-dashboard-token-1234');
  });

  it.runIf(hasTmux)('Ctrl-C while waiting: exit 130, the listener closed', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const terminal = Terminal.start(['auth', 'login', '--app', '--client-id', 'sandbox-app', '--base-url', sandbox.url, '--redirect-port', String(port), '--no-browser'], {
      STORE_ADMIN_CONFIG_DIR: dir,
      STORE_ADMIN_CLIENT_SECRET: SECRET,
      NO_COLOR: '1',
    });
    try {
      await terminal.waitFor(/Waiting for the store's answer/);
      terminal.keys('C-c');
      expect(await terminal.exitCode()).toBe(130);
      expect(terminal.screen()).toContain('Interrupted; the login was abandoned and nothing was saved');
      // The port is free again: a listener can take it.
      const probe = createServer();
      await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(port, '127.0.0.1', resolve));
      await new Promise((resolve) => probe.close(resolve));
    } finally {
      terminal.kill();
    }
  });

  it.runIf(hasTmux)('at a terminal, a wrong --client-id is said before the secret is asked for, and nothing waits', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const terminal = Terminal.start(['auth', 'login', '--app', '--client-id', 'sandbox-ap', '--base-url', sandbox.url, '--redirect-port', String(port)], {
      STORE_ADMIN_CONFIG_DIR: dir,
      NO_COLOR: '1',
    });
    try {
      expect(await terminal.exitCode()).toBe(4);
      // The error is wrapped at words to the terminal's width.
      const screen = terminal.screen().replace(/\s+/g, ' ');
      expect(screen).toContain('The store refused the login before anyone could approve it (400: Unknown app — No app with the client id "sandbox-ap" is installed on this store.)');
      expect(screen).not.toContain("The app's client secret");
      expect(screen).not.toContain('Waiting for the store');
    } finally {
      terminal.kill();
    }
  });

  it('no secret in any output, in any file but the 0600 config, nor in any argument list', () => {
    expect(tokens.size).toBeGreaterThan(4);
    const haystacks: [string, string][] = outputs.map((text, i) => [`output ${i}`, text]);
    haystacks.push(...argvs.map((argv, i): [string, string] => [`argument list ${i}`, argv.join(' ')]));
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]));
    for (const file of files(root)) {
      if (file.endsWith('config.json')) {
        expect(statSync(file).mode & 0o777, file).toBe(0o600);
        continue;
      }
      haystacks.push([file, readFileSync(file, 'utf8')]);
    }
    // The stand-in's logs record the argument list and the environment the CLI gave the browser.
    expect(haystacks.some(([name, text]) => name.includes('stand-in') && text.includes('argv: http://127.0.0.1'))).toBe(true);
    expect(haystacks.some(([name, text]) => name.includes('stand-in') && text.includes('\nenv: '))).toBe(true);
    for (const secret of tokens) for (const [name, text] of haystacks) expect(text.includes(secret), `${name} holds a secret`).toBe(false);
    writeFileSync(join(root, 'swept'), 'ok');
  });
});

describe('auth login --app against a token endpoint that misbehaves', () => {
  let sandbox: Sandbox;
  let port: number;
  let proxy: ReturnType<typeof createHttpServer>;
  let store: string;
  /** How the store's token endpoint answers; every other request goes to the sandbox as it came. */
  let tokenEndpoint: (res: ServerResponse) => void = () => {};
  const root = useConfigDir();
  let n = 0;

  beforeAll(async () => {
    port = await freePort();
    sandbox = await startSandbox({ oauth: { clientSecret: SECRET, redirectUris: [`http://127.0.0.1:${port}/callback`] } });
    const target = new URL(sandbox.url);
    proxy = createHttpServer((req, res) => {
      if (req.method === 'POST' && req.url === TOKEN_PATH) return void req.resume().on('end', () => tokenEndpoint(res));
      const forwarded = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    store = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await sandbox.close();
  });

  const login = (dir: string) => {
    const log = join(root, `stand-in-${n++}.log`);
    const run = startLogin(['--client-id', 'sandbox-app', '--base-url', store, '--redirect-port', String(port)], {
      STORE_ADMIN_CONFIG_DIR: dir,
      BROWSER: STAND_IN,
      STAND_IN_LOG: log,
      STORE_ADMIN_CLIENT_SECRET: SECRET,
    });
    const standIn = () => until('the stand-in to read the tab', () => existsSync(log) && readFileSync(log, 'utf8').includes('tab page:') && readFileSync(log, 'utf8'));
    return { run, standIn };
  };

  it('a token with a line break or a space is refused: exit 1, nothing saved, never "Logged in"', async () => {
    for (const token of ['sbx_app_abc\r\nX-Injected: 1', 'sbx_app abc', 'sbx_app_\u0000abc']) {
      tokenEndpoint = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: token, token_type: 'Bearer', scope: 'orders:read' }));
      const dir = join(root, `cfg-${n}`);
      const { run, standIn } = login(dir);
      const end = await run.exited;
      expect(end.code, end.stderr).toBe(1);
      expect(end.stderr).toContain("store-admin: The store's token endpoint answered a token with a line break, a space or a control character in it, which no request can carry; nothing was saved");
      expect(end.stderr).not.toContain('Logged in');
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
      expect(await standIn()).toContain('GET redirect: 502 The login failed');
    }
  });

  it('a client secret the store echoes is hidden in the tab page, as it is in the terminal', async () => {
    tokenEndpoint = (res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client', error_description: `client secret ${SECRET} does not match` }));
    const { run, standIn } = login(join(root, `cfg-${n}`));
    const end = await run.exited;
    expect(end.code).toBe(4);
    expect(end.stderr).toContain("The store rejected the app's client id or secret (client secret *** does not match)");
    const tab = await standIn();
    expect(tab).toContain("tab page: The store rejected the app's client id or secret (client secret *** does not match)");
    expect(tab).not.toContain(SECRET);
  });
});
