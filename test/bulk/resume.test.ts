// Journals and --resume over real sockets: a run killed with SIGKILL and resumed applies every
// line exactly once (read back from the sandbox's own state); a change whose answer was lost is
// named and sent again only when asked; a changed input is refused.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { FULL_TOKEN, startTestSandbox, until } from '../helpers.js';
import { BIN, runCli, useConfigDir } from '../cli/run.js';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** The complete records of a run's journal as they are on disk now (a record being written is left out). */
function journalOf(dir: string, id: string): { type: string; line?: number }[] {
  const file = join(dir, 'history', 'runs', `${id}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').slice(0, -1).map((line) => JSON.parse(line));
}

const runIdIn = (stderr: string) => /Run (\d{8}-\d{6}-[0-9a-f]{4});/.exec(stderr)?.[1];

describe('--resume', () => {
  const dir = useConfigDir();

  it('after a SIGKILL mid-run, applies every line exactly once', async () => {
    const store = memoryStore();
    const sandbox = await startTestSandbox({ token: FULL_TOKEN, store });
    closers.push(() => sandbox.close());
    const env = { PATH: process.env.PATH ?? '', STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
    const csv = join(dir, 'notes.csv');
    const messages = Array.from({ length: 12 }, (_, i) => `resume note ${i + 1}, with a comma`);
    writeFileSync(csv, `number,message\r\n${messages.map((m, i) => `${10001 + (i % 3)},"${m}"`).join('\r\n')}`);
    const args = ['orders', 'add-note', '--each', csv, '--rate', '5', '--concurrency', '1'];
    const applied = () => sandbox.counters.byOperation['ordersNotesCreate']?.applied ?? 0;

    const child = spawn(process.execPath, [BIN, ...args], { env });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const gone = new Promise((resolve) => child.on('close', resolve));
    const id = await until('the run to name its journal', () => runIdIn(stderr), { seen: () => stderr });
    const outcomes = () => journalOf(dir, id).filter((record) => record.type === 'outcome').length;
    // Killed as soon as the fifth answer is on the journal: at 5/s the next line is 200 ms away.
    await until('five outcomes on the journal', () => outcomes() >= 5, { seen: () => JSON.stringify(journalOf(dir, id)) });
    child.kill('SIGKILL');
    await gone;
    const before = applied();
    // Every change the store applied is on the journal, and the run stopped short of the end.
    expect(before).toBe(outcomes());
    expect(before).toBeGreaterThanOrEqual(5);
    expect(before).toBeLessThan(12);

    // The rate is no part of what a resume must repeat: the rest goes at full speed.
    const resumed = await runCli([...args, '--rate', '0', '--resume'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`Resuming run \\d{8}-\\d{6}-[0-9a-f]{4}: ${before} of 12 lines already applied, ${12 - before} to send`));
    const notes = Object.values(store.state.records.orderNotes).map((note) => note.message as string);
    for (const message of messages) expect(notes.filter((n) => n === message)).toHaveLength(1);
    expect(applied()).toBe(12);

    // A finished run has nothing left to send.
    const again = await runCli([...args, '--rate', '0', '--resume'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('is complete: every line was applied');
    expect(applied()).toBe(12);
  });

  it('has journaled every outcome it reported, whenever it is killed', async () => {
    const sandbox = await startTestSandbox({ token: FULL_TOKEN });
    closers.push(() => sandbox.close());
    const env = { PATH: process.env.PATH ?? '', STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
    const file = join(dir, 'renewals.txt');
    writeFileSync(file, Array.from({ length: 400 }, (_, i) => `${(i % 4) + 1}\n`).join(''));
    const child = spawn(process.execPath, [BIN, 'subscriptions', 'update', '--each', file, '--interval-count', '3', '--rate', '100', '--concurrency', '4'], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const gone = new Promise((resolve) => child.on('close', resolve));
    await until('20 lines reported', () => stdout.split('\n').length > 20, { seen: () => stderr });
    child.kill('SIGKILL');
    await gone;

    const journal = journalOf(dir, runIdIn(stderr)!);
    const outcomes = journal.filter((record) => record.type === 'outcome');
    const reported = stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(reported.length).toBeGreaterThanOrEqual(20);
    expect(reported.length).toBeLessThan(400);
    // Each line printed is on the journal, and no outcome is on it without its request's line before it.
    expect(outcomes.length).toBeGreaterThanOrEqual(reported.length);
    for (const outcome of outcomes) {
      const sent = journal.findIndex((record) => record.type === 'sent' && record.line === outcome.line);
      expect(sent).toBeGreaterThanOrEqual(0);
      expect(sent).toBeLessThan(journal.indexOf(outcome));
    }
  });

  it('leaves a line whose answer was lost alone, unless --retry-unknown', async () => {
    // A store that never answers while the run is killed; then the same store, on the same
    // address, answering again for the resumes.
    const store = memoryStore();
    const hanging = await startTestSandbox({ token: FULL_TOKEN, store, faults: parseFaults('hang=1', 1) });
    const port = new URL(hanging.url).port;
    const env = { PATH: process.env.PATH ?? '', STORE_ADMIN_BASE_URL: hanging.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
    const file = join(dir, 'one.txt');
    writeFileSync(file, '10001\n10002\n');
    const args = ['orders', 'add-note', '--each', file, '--message', 'maybe twice', '--rate', '0', '--concurrency', '1'];
    const child = spawn(process.execPath, [BIN, ...args], { env });
    const gone = new Promise((resolve) => child.on('close', resolve));
    await until('the first request to reach the store', () => hanging.counters.received >= 1);
    child.kill('SIGKILL');
    await gone;
    await hanging.close();
    const sandbox = await startTestSandbox({ token: FULL_TOKEN, store, port: Number(port) });
    closers.push(() => sandbox.close());
    const sent = () => sandbox.counters.byOperation['ordersNotesCreate']?.received ?? 0;

    // Line 2 was never sent: it goes now; line 1 may have been applied: it stays out, and says so.
    const skipped = await runCli([...args, '--resume'], { env });
    expect(skipped.code).toBe(1);
    expect(skipped.stderr).toContain('Lines 1 were sent but their answers were lost: they may have been applied, so they are not sent again');
    expect(skipped.stderr).toContain('store-admin: 1 line with an unknown outcome was left out, so the run is not complete');
    expect(sent()).toBe(1);
    const nothingElse = await runCli([...args, '--resume'], { env });
    expect(nothingElse.code).toBe(1);
    expect(nothingElse.stderr).toContain('nothing sent; 1 line has an unknown outcome');
    expect(sent()).toBe(1);
    const retried = await runCli([...args, '--resume', '--retry-unknown'], { env });
    expect(retried.code, retried.stderr).toBe(0);
    expect(sent()).toBe(2);
  });

  it('refuses an input that changed, and resumes the same one', async () => {
    const sandbox = await startTestSandbox({ token: FULL_TOKEN });
    closers.push(() => sandbox.close());
    const env = { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
    const file = join(dir, 'cats.txt');
    writeFileSync(file, '1\n2\n');
    const first = await runCli(['customers', 'add-note', '--each', file, '--message', 'x', '--rate', '0'], { env });
    expect(first.code, first.stderr).toBe(0);
    const id = /Run (\S+);/.exec(first.stderr)![1]!;
    writeFileSync(file, '1\n2\n1\n');
    const changed = await runCli(['customers', 'add-note', '--each', file, '--message', 'x', '--resume', id], { env });
    expect(changed.code).toBe(2);
    expect(changed.stderr.split('\n')[0]).toBe(`store-admin: --resume ${id}: the input is not the one that run read (${file} has 3 lines, not 2)`);
    // Which run is found, and every other refusal, are held in resume-core.test.ts.
    writeFileSync(file, '1\n2\n');
    const resumed = await runCli(['customers', 'add-note', '--each', file, '--message', 'x', '--resume'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await runCli(['customers', 'add-note', '1', '--message', 'x', '--retry-unknown'], { env })).code).toBe(2);
  });

  it('a run is worked on by one process at a time: a resume while it runs, or beside another resume, is refused and sends nothing', async () => {
    const store = memoryStore();
    const sandbox = await startTestSandbox({ token: FULL_TOKEN, store });
    closers.push(() => sandbox.close());
    const env = { PATH: process.env.PATH ?? '', STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
    const csv = join(dir, 'overlap.csv');
    const messages = Array.from({ length: 16 }, (_, i) => `overlapping note ${i + 1}`);
    writeFileSync(csv, `number,message\n${messages.map((m, i) => `${10001 + (i % 3)},${m}`).join('\n')}\n`);
    const args = ['orders', 'add-note', '--each', csv, '--rate', '4', '--concurrency', '1'];
    const applied = () => sandbox.counters.byOperation['ordersNotesCreate']?.applied ?? 0;
    // This run's notes (the seeded store has notes of its own, some alike).
    const notes = () => Object.values(store.state.records.orderNotes).map((note) => note.message as string).filter((message) => message.startsWith('overlapping note '));

    const child = spawn(process.execPath, [BIN, ...args], { env });
    const gone = new Promise((resolve) => child.on('close', resolve));
    await until('two lines applied', () => applied() >= 2);
    // The first run is still sending: a resume now would send its lines a second time.
    const overlap = await runCli([...args, '--resume'], { env });
    expect(overlap.code).toBe(1);
    expect(overlap.stderr).toMatch(new RegExp(`^store-admin: Run \\d{8}-\\d{6}-[0-9a-f]{4} is in use by process ${child.pid} \\(since [^)]+\\); nothing was sent\n`));
    expect(overlap.stdout).toBe('');
    await until('four lines applied', () => applied() >= 4);
    child.kill('SIGKILL');
    await gone;
    expect(applied()).toBeLessThan(16);

    // Its lock names a process that is gone: the next resume takes it over; of two at once, one waits its turn.
    // Twice the first run's rate: the one that resumes still holds the run for over a second.
    const faster = [...args, '--rate', '8', '--resume'];
    const both = await Promise.all([runCli(faster, { env }), runCli(faster, { env })]);
    const refused = both.filter((r) => r.code === 1 && /is in use by process \d+ .*; nothing was sent/.test(r.stderr));
    const resumed = both.filter((r) => r.stderr.includes('Resuming run'));
    expect(refused, both.map((r) => r.stderr).join('\n---\n')).toHaveLength(1);
    expect(resumed).toHaveLength(1);
    for (const message of messages) expect(notes().filter((n) => n === message).length, message).toBeLessThanOrEqual(1);
    expect(new Set(notes()).size).toBe(notes().length);
    // Done, it gives the run up: another resume finds it complete.
    const after = await runCli([...args, '--rate', '0', '--resume'], { env });
    expect(after.stderr).not.toContain('in use');
    const id = /Run (\S+) is in use/.exec(overlap.stderr)![1]!;
    expect(readdirSync(join(dir, 'history', 'runs'))).not.toContain(`${id}.lock`);
  });

  it('skips and reports journal lines that are not records, and resumes from the rest', async () => {
    const sandbox = await startTestSandbox({ token: FULL_TOKEN });
    closers.push(() => sandbox.close());
    const env = { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
    const file = join(dir, 'odd.txt');
    writeFileSync(file, '1\n2\n');
    const args = ['customers', 'add-note', '--each', file, '--message', 'odd journal', '--rate', '0'];
    const first = await runCli(args, { env });
    expect(first.code, first.stderr).toBe(0);
    const id = /Run (\S+);/.exec(first.stderr)![1]!;
    appendFileSync(join(dir, 'history', 'runs', `${id}.jsonl`), 'null\n{"type":"outcome","line":"2","outcome":"failed"}\n');
    const before = sandbox.counters.received;
    const resumed = await runCli([...args, '--resume'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`warning: skipped 2 unreadable lines of run ${id}'s journal \\(\\d+, \\d+\\)`));
    expect(resumed.stderr).toContain('is complete: every line was applied');
    expect(sandbox.counters.received).toBe(before);
  });

  it('after Ctrl-C (exit 130) or SIGTERM (exit 143), the summary gives the command that resumes the run, and it does', async () => {
    const cutShort = async ([signal, code]: readonly ['SIGINT' | 'SIGTERM', number]) => {
      const store = memoryStore();
      const sandbox = await startTestSandbox({ token: FULL_TOKEN, store });
      closers.push(() => sandbox.close());
      const env = { PATH: process.env.PATH ?? '', STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
      const file = join(dir, `notes-${signal}.txt`);
      writeFileSync(file, Array.from({ length: 8 }, (_, i) => `${10001 + (i % 3)}\n`).join(''));
      const args = ['orders', 'add-note', '--each', file, '--message', `cut short by ${signal}`, '--rate', '10', '--concurrency', '1'];
      const child = spawn(process.execPath, [BIN, ...args], { env });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const applied = () => sandbox.counters.byOperation['ordersNotesCreate']?.applied ?? 0;
      await until('two lines applied', () => applied() >= 2, { seen: () => stderr });
      child.kill(signal);
      expect(await exited).toBe(code);
      const id = /Run (\d{8}-\d{6}-[0-9a-f]{4});/.exec(stderr)![1]!;
      const hint = /^hint: Resume with: (.*)$/m.exec(stderr)?.[1];
      expect(hint).toBe(`store-admin orders add-note --each ${file} --message 'cut short by ${signal}' --rate 10 --concurrency 1 --resume ${id}`);
      // The hint, run as a shell would, finishes the run.
      const words = [...hint!.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
      const resumed = await runCli(words, { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`Resuming run ${id}`);
      expect(Object.values(store.state.records.orderNotes).filter((note) => note.message === `cut short by ${signal}`)).toHaveLength(8);
    };
    await Promise.all([cutShort(['SIGINT', 130]), cutShort(['SIGTERM', 143])]);
  });

  it('keeps journals private and free of the token', () => {
    const history = join(dir, 'history');
    expect(statSync(history).mode & 0o777).toBe(0o700);
    const files = [join(history, 'history.jsonl'), ...readdirSync(join(history, 'runs')).map((name) => join(history, 'runs', name))];
    for (const file of files) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8')).not.toContain(FULL_TOKEN);
    }
  });
});
