// Exports in a pipeline, against the sandbox over real sockets: what a job hands the next step
// (GitHub Actions outputs and summary, --json), the hint after Ctrl-C run as printed, SIGTERM,
// targets refused before anything is created, and signed links that expire on the way.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { advanceClock, FULL_TOKEN, useSandbox } from '../helpers.js';
import { readGithubOutput } from './github-output.js';
import { runWaiting } from './in-process.js';
import { BIN, runCli, useConfigDir } from './run.js';

const CREATE = ['exports', 'create', '--type', 'order_list', '--from', '2026-01-01', '--to', '2026-01-31'];
const CSV_HEADER = /^number,date_placed,status,/;

/** Runs the CLI in the background, resolving `saw(text)` once stderr shows it. */
function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: 'pipe' });
  let stderr = '';
  const waiters: [string, () => void][] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const [text, resolve] of waiters) if (stderr.includes(text)) resolve();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    exited,
    stderr: () => stderr,
    saw: (text: string) => new Promise<void>((resolve) => (stderr.includes(text) ? resolve() : waiters.push([text, resolve]))),
  };
}

describe('an export step in GitHub Actions', () => {
  // Exports turn available after the sandbox's 5 s; a command that waits runs with its clock on the sandbox's.
  const ctx = useSandbox();
  const dir = useConfigDir();
  const actions = (name: string) => {
    const files = { GITHUB_OUTPUT: join(dir, `${name}.output`), GITHUB_STEP_SUMMARY: join(dir, `${name}.summary`) };
    for (const file of Object.values(files)) writeFileSync(file, '');
    return { ...files, CI: 'true', GITHUB_ACTIONS: 'true', STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
  };

  it('hands the next step export_id, path, bytes and sha256, and writes a summary', async () => {
    const env = actions('create');
    const file = join(dir, 'orders.csv');
    const r = await runWaiting(ctx.sandbox, [...CREATE, '--download', file], env);
    expect(r.code, r.stderr).toBe(0);
    const content = readFileSync(file);
    const sha256 = createHash('sha256').update(content).digest('hex');
    const { id } = r.json();
    expect(readGithubOutput(readFileSync(env.GITHUB_OUTPUT, 'utf8'))).toEqual({ export_id: String(id), path: file, bytes: String(content.length), sha256 });
    expect(r.json().download).toEqual({ path: file, bytes: content.length, sha256 });
    expect(r.stderr).toContain(`Saved export ${id} to ${file}: ${content.length} bytes`);
    const summary = readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8');
    expect(summary).toContain(`### Export ${id} downloaded`);
    expect(summary).toContain(`| \`${file}\` | ${content.length} | \`${sha256}\` |`);
    expect(r.stderr).not.toContain('::error');
  });

  it('a file name over several lines is handed over whole', async () => {
    const env = actions('lines');
    const file = join(dir, 'two\nlines.csv');
    const r = await runCli(['exports', 'download', '1', '--output-file', file], { env });
    expect(r.code, r.stderr).toBe(0);
    const output = readFileSync(env.GITHUB_OUTPUT, 'utf8');
    expect(output).toMatch(/^path<<ghadelimiter_[0-9a-f-]+$/m);
    expect(readGithubOutput(output)).toMatchObject({ export_id: '1', path: file });
    expect(readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8')).toContain('| `two lines.csv`'.replace('two', `${dir}/two`));
  });

  it('a wait that gives up hands over the export id and shows an annotation, exit 5', async () => {
    const env = actions('timeout');
    const slow = await runWaiting(ctx.sandbox, [...CREATE, '--download', join(dir, 'slow.csv'), '--wait-timeout', '1s'], env);
    expect(slow.code, slow.stderr).toBe(5);
    const id = readGithubOutput(readFileSync(env.GITHUB_OUTPUT, 'utf8')).export_id;
    expect(id).toMatch(/^\d+$/);
    expect(slow.stderr).toContain(
      `::error title=store-admin (exit 5)::Gave up waiting for export ${id} after 1s%3A it is still pending`.replace('%3A', ':') +
        `%0AThe export goes on; fetch it later: store-admin exports download ${id} --wait --output-file ${join(dir, 'slow.csv')}`,
    );
    // The step's summary says it too: a failed step's summary is not left empty.
    expect(readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8')).toContain(
      `### store-admin failed (exit 5)\n\n\`\`\`text\nGave up waiting for export ${id} after 1s: it is still pending\n` +
        `hint: The export goes on; fetch it later: store-admin exports download ${id} --wait --output-file ${join(dir, 'slow.csv')}\n\`\`\`\n`,
    );
  });
});

describe('after Ctrl-C in a wait, the hint finishes the job', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });

  it('run as printed, with the file name the user gave; the history knows the export', async () => {
    const file = join(dir, "Bob's orders.csv");
    const run = start([...CREATE, '--download', file], env());
    await run.saw('waiting until it is available');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    const hint = /^hint: Fetch it later: (.*)$/m.exec(run.stderr())?.[1];
    const id = /Export (\d+) is pending/.exec(run.stderr())?.[1];
    expect(hint).toBe(`store-admin exports download ${id} --wait --output-file '${file.replace("'", `'\\''`)}'`);
    // Time passes before the user runs it: the export has turned available.
    expect((await advanceClock(ctx.sandbox, 5_000)).exports).toEqual([expect.objectContaining({ id: Number(id) })]);
    // The command as a user pastes it into a shell, store-admin being on PATH.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'store-admin'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    const shell = spawn('/bin/sh', ['-c', hint!], { env: { ...env(), PATH: `${bin}:${process.env.PATH}` }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await new Promise((resolve) => shell.on('close', resolve)), stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(CSV_HEADER);
    const history = await runCli(['history', '--json'], { env: env() });
    expect(history.json()).toContainEqual(expect.objectContaining({ command: 'exports create', created: id, outcome: 'applied' }));
  });

  it('SIGTERM stops the wait with exit 143', async () => {
    const run = start([...CREATE, '--wait'], env());
    await run.saw('waiting until it is available');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(143);
    expect(run.stderr()).toMatch(/store-admin: Stopped waiting for export \d+; the export itself goes on/);
  });
});

describe('a target that cannot be written is refused before the export is created', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const created = () => ctx.sandbox.counters.byOperation['exportsCreate']?.received ?? 0;

  it('a dangling symbolic link', async () => {
    const file = join(dir, 'dangling.csv');
    symlinkSync(join(dir, 'nowhere', 'file.csv'), file);
    const r = await runCli([...CREATE, '--download', file, '--force'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`store-admin: Cannot save to ${file}: it is a symbolic link to a file that does not exist`);
    expect(created()).toBe(0);
  });

  it('a directory that takes no new file', async () => {
    // chmod does not stop root, whom sysfs refuses.
    const locked = process.getuid?.() === 0 ? '/sys' : join(dir, 'locked');
    if (locked !== '/sys') {
      mkdirSync(locked);
      chmodSync(locked, 0o500);
    }
    const file = join(locked, 'orders.csv');
    const r = await runCli([...CREATE, '--download', file], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`store-admin: Cannot save to ${file}: the directory ${locked} cannot be written to`);
    expect(created()).toBe(0);
  });

  it('a link to an existing file is written through with --force', async () => {
    const real = join(dir, 'real.csv');
    writeFileSync(real, 'old');
    symlinkSync(real, join(dir, 'link.csv'));
    const r = await runCli(['exports', 'download', '1', '--output-file', join(dir, 'link.csv'), '--force'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(real, 'utf8')).toMatch(CSV_HEADER);
    expect(readdirSync(dir).filter((name) => name.endsWith('.part'))).toEqual([]);
  });
});

describe('a signed link that expires before it is fetched (--link-ttl)', () => {
  const ctx = useSandbox({ linkTtlSeconds: 1 });
  const dir = useConfigDir();
  let proxy: Server;
  afterAll(() => new Promise((resolve) => proxy?.close(resolve)));

  it('is refused by the store, and a fresh link is asked for', async () => {
    // Between the CLI and the sandbox: links point at it, and the first file request is held until
    // its link has expired.
    let held = 0;
    proxy = createServer((req, res) => {
      const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const forward = () =>
        req.pipe(
          request(`${ctx.sandbox.url}${req.url}`, { method: req.method, headers: req.headers }, async (answer) => {
            if (!req.url!.endsWith('/download/')) {
              res.writeHead(answer.statusCode!, answer.headers);
              return answer.pipe(res);
            }
            let body = '';
            for await (const chunk of answer) body += chunk;
            res.writeHead(answer.statusCode!, { 'content-type': 'application/json' });
            res.end(body.split(ctx.sandbox.url).join(origin));
          }),
        );
      const expires = Number(new URL(req.url!, 'http://x').searchParams.get('expires'));
      if (!req.url!.startsWith('/media/') || held++ > 0) return forward();
      // Links expire on the sandbox's clock: it is moved a second past this one's expiry first.
      void fetch(`${ctx.sandbox.url}/sandbox/clock/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${FULL_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: new Date((expires + 1) * 1000).toISOString() }),
      }).then(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const file = join(dir, 'fresh.csv');
    const r = await runCli(['exports', 'download', '1', '--output-file', file], {
      env: { STORE_ADMIN_BASE_URL: origin, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('The download link of export 1 was refused (expired?); asking for a fresh one');
    expect(ctx.sandbox.counters.byOperation['exportsDownloadRetrieve']?.received).toBe(2);
    expect(readFileSync(file, 'utf8')).toMatch(CSV_HEADER);
  });
});
