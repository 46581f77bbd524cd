// store-admin history: every change this machine made, single commands and bulk runs, with their
// outcome; history show RUN; and the retention bound.
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendHistory, prune, PRUNED_TO, RETENTION_ENTRIES } from '../../src/journal/history.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from '../cli/run.js';

describe('store-admin history', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const cli = (args: string[], stdin?: string) =>
    runCli(args, { env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir }, stdin });

  it('lists each change with its store, target and outcome; reads are not changes', async () => {
    expect((await cli(['customers', 'add-note', '1', '--message', 'kept'])).code).toBe(0);
    expect((await cli(['customers', 'add-note', '99999', '--message', 'refused'])).code).toBe(1);
    expect((await cli(['categories', 'get', '1'])).code).toBe(0);
    expect((await cli(['categories', 'get', '--each', '-', '--rate', '0'], '1\n2\n')).code).toBe(0);
    const readResume = await cli(['categories', 'get', '--each', '-', '--resume'], '1\n');
    expect(readResume.stderr.split('\n')[0]).toBe('store-admin: --resume: runs that only read are not journaled; run it again instead');
    const run = await cli(['customers', 'add-note', '--each', '-', '--message', 'bulk', '--rate', '0'], '1\n2\n99999\n');
    expect(run.code).toBe(1);
    const id = /Run (\S+);/.exec(run.stderr)![1];

    const list = await cli(['history', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const host = new URL(ctx.sandbox.url).host;
    expect(list.json()).toEqual([
      expect.objectContaining({ command: 'customers notes create', store: host, outcome: 'run', run: id, lines: 3, applied: 2, failed: 1, unknown: 0, not_sent: 0 }),
      expect.objectContaining({ command: 'customers notes create', operation: 'usersNotesCreate', store: host, target: '99999', outcome: 'failed', status: 404 }),
      expect.objectContaining({ command: 'customers notes create', store: host, target: '1', outcome: 'applied', status: 200 }),
    ]);

    const show = await cli(['history', 'show', id!, '--json']);
    expect(show.json().lines).toEqual([
      expect.objectContaining({ line: 1, input: '1', outcome: 'applied' }),
      expect.objectContaining({ line: 2, input: '2', outcome: 'applied' }),
      expect.objectContaining({ line: 3, input: '99999', outcome: 'failed', status: 404 }),
    ]);
    expect(show.json().run).toMatchObject({ id, command: 'customers notes create', input: { source: '-', lines: 3 } });
    // NDJSON: one record per line of the run.
    const ndjson = await cli(['history', 'show', id!, '-o', 'ndjson']);
    expect(ndjson.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(show.json().lines);
  });

  it('filters by --since and --operation, and says when nothing matches', async () => {
    expect((await cli(['history', '--operation', 'usersNotesCreate', '--json'])).json()).toHaveLength(3);
    expect((await cli(['history', '--operation', 'subscriptions cancel', '--json'])).json()).toEqual([]);
    expect((await cli(['history', 'list', '--since', '1h', '--json'])).json()).toHaveLength(3);
    const bad = await cli(['history', '--since', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('takes a duration such as 30m, 12h, 7d or 2w');
    const none = await cli(['history', '--operation', 'apps update-settings', '-o', 'table']);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('Nothing recorded that matches (changes are kept for 90 days, 10000 at most)');
    const missing = await cli(['history', 'show']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('store-admin: Missing <run>: prompts need a terminal\nhint: Run: store-admin history show RUN (the ids are in store-admin history)\n');
    const unknown = await cli(['history', 'show', '20200101-000000-abcd']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe('store-admin: No run 20200101-000000-abcd in the history');
  });
});

describe('retention', () => {
  const dir = useConfigDir();

  it('keeps 90 days and 10,000 entries at most, and the journals of the runs it keeps', async () => {
    const history = join(dir, 'history');
    mkdirSync(join(history, 'runs'), { recursive: true });
    const now = Date.parse('2026-11-23T00:00:00Z');
    const at = (daysAgo: number) => new Date(now - daysAgo * 86_400_000).toISOString();
    const entries = [
      { at: at(120), command: 'old', operation: 'x', store: 's', outcome: 'run', run: '20260701-000000-aaaa' },
      ...Array.from({ length: RETENTION_ENTRIES + 5 }, (_, i) => ({ at: at(10 - i / 10_000), command: `c${i}`, operation: 'x', store: 's', outcome: 'applied' })),
      { at: at(1), command: 'recent', operation: 'x', store: 's', outcome: 'run', run: '20261122-000000-bbbb' },
    ];
    writeFileSync(join(history, 'history.jsonl'), entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    writeFileSync(join(history, 'runs', '20260701-000000-aaaa.jsonl'), '');
    writeFileSync(join(history, 'runs', '20261122-000000-bbbb.jsonl'), '');
    // Written long ago: a journal written in the last hour may belong to a run just starting.
    const longAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(join(history, 'runs', '20260701-000000-aaaa.jsonl'), longAgo, longAgo);
    await prune(dir, now);
    const kept = readFileSync(join(history, 'history.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    // Past the limit, down to 9,000: the next thousand changes then append without rewriting the log.
    expect(kept).toHaveLength(PRUNED_TO);
    expect(kept.at(-1).command).toBe('recent');
    expect(kept.some((e: { command: string }) => e.command === 'old' || e.command === 'c0')).toBe(false);
    expect(readdirSync(join(history, 'runs'))).toEqual(['20261122-000000-bbbb.jsonl']);
  });

  it('never holds more than 10,000 entries, however short they are', async () => {
    const many = join(dir, 'many');
    mkdirSync(join(many, 'history', 'runs'), { recursive: true });
    const entry = (i: number) => ({ at: new Date().toISOString(), command: `c${i}`, operation: 'x', store: 's', outcome: 'applied' as const });
    // Far below the size that prunes by itself (3 MB): only counting the entries finds too many.
    writeFileSync(join(many, 'history', 'history.jsonl'), Array.from({ length: RETENTION_ENTRIES }, (_, i) => `${JSON.stringify(entry(i))}\n`).join(''));
    await appendHistory(many, entry(RETENTION_ENTRIES));
    const kept = readFileSync(join(many, 'history', 'history.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).command);
    expect(kept).toHaveLength(PRUNED_TO);
    expect(kept.at(-1)).toBe(`c${RETENTION_ENTRIES}`);
  });

  it('drops entries past 90 days on a quiet machine too: the next change prunes them', async () => {
    const quiet = join(dir, 'quiet');
    const entry = (at: string, command: string) => ({ at, command, operation: 'x', store: 's', outcome: 'applied' as const });
    await appendHistory(quiet, entry(new Date(Date.now() - 200 * 86_400_000).toISOString(), 'long ago'));
    await appendHistory(quiet, entry(new Date().toISOString(), 'today'));
    const kept = readFileSync(join(quiet, 'history', 'history.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).command);
    expect(kept).toEqual(['today']);
  });

  it("finds the oldest entry's date by its field, wherever the key sits in the line", async () => {
    const keyed = join(dir, 'keyed');
    mkdirSync(join(keyed, 'history', 'runs'), { recursive: true });
    // Written by hand, or by another version: a long reason before the date, a line cut short before it all.
    const old = { reason: 'x'.repeat(2000), command: 'long ago', operation: 'x', store: 's', outcome: 'failed', at: new Date(Date.now() - 200 * 86_400_000).toISOString() };
    writeFileSync(join(keyed, 'history', 'history.jsonl'), `{"command":"cut sh\n${JSON.stringify(old)}\n`);
    await appendHistory(keyed, { at: new Date().toISOString(), command: 'today', operation: 'x', store: 's', outcome: 'applied' });
    const kept = readFileSync(join(keyed, 'history', 'history.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).command);
    expect(kept).toEqual(['today']);
  });

  it('skips and reports lines that are not entries (null, mistyped, cut short), in the history and in a run journal', async () => {
    const odd = join(dir, 'odd');
    mkdirSync(join(odd, 'history', 'runs'), { recursive: true });
    const id = '20261123-090000-eeee';
    const good = { at: new Date().toISOString(), command: 'customers add-note', operation: 'usersNotesCreate', store: 's', outcome: 'run', run: id };
    writeFileSync(
      join(odd, 'history', 'history.jsonl'),
      ['null', '{"at":5,"command":"x","operation":"x","store":"s","outcome":"applied"}', '"text"', '[]', JSON.stringify(good), '{"at":"2026-11-2'].join('\n'),
    );
    const header = { type: 'run', id, at: good.at, command: 'customers add-note', operation: 'usersNotesCreate', store: 's', input: { source: '-', sha256: 'x', lines: 3 }, body: 'y' };
    writeFileSync(
      join(odd, 'history', 'runs', `${id}.jsonl`),
      [JSON.stringify(header), 'null', '{"type":"outcome","line":"x","outcome":"applied"}', '{"type":"outcome","line":1,"outcome":"applied","input":["1"]}', '{"type":"sent","line":null}', '7'].join('\n'),
    );
    const env = { env: { STORE_ADMIN_CONFIG_DIR: odd } };
    for (const args of [['history', '--json'], ['history', '-o', 'table'], ['history', 'show', id, '--json'], ['history', 'show', id, '-o', 'table']]) {
      const r = await runCli(args, env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toContain('unexpected error');
      expect(r.stderr).toContain(`warning: skipped 4 unreadable lines of run ${id}'s journal (2, 3, 5, 6)`);
      if (args[1] !== 'show') expect(r.stderr).toContain(`warning: skipped 5 unreadable lines of ${join(odd, 'history', 'history.jsonl')} (1, 2, 3, 4, 6)`);
    }
    const list = await runCli(['history', '--json'], env);
    expect(list.json()).toEqual([expect.objectContaining({ run: id, applied: 1, not_sent: 2 })]);
  });

  it('lists a run whose journal is gone (removed by hand, or never written) instead of failing', async () => {
    const lost = join(dir, 'lost');
    mkdirSync(join(lost, 'history', 'runs'), { recursive: true });
    const entry = { at: new Date().toISOString(), command: 'customers add-note', operation: 'usersNotesCreate', store: 's', outcome: 'run', run: '20261123-080000-dddd' };
    writeFileSync(join(lost, 'history', 'history.jsonl'), `${JSON.stringify(entry)}\n`);
    const r = await runCli(['history', '--json'], { env: { STORE_ADMIN_CONFIG_DIR: lost } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toEqual([expect.objectContaining({ run: '20261123-080000-dddd', applied: 0, not_sent: 0 })]);
  });

  it('a journal started by a run in another command is not pruned before its history entry lands', async () => {
    const busy = join(dir, 'busy');
    mkdirSync(join(busy, 'history', 'runs'), { recursive: true });
    // The run has created its journal; its history entry is appended next.
    writeFileSync(join(busy, 'history', 'runs', '20261123-090000-cccc.jsonl'), '{"type":"header"}\n');
    await prune(busy);
    expect(readdirSync(join(busy, 'history', 'runs'))).toEqual(['20261123-090000-cccc.jsonl']);
  });
});
