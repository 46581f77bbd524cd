// The pieces behind terminal output: column fitting, cell summaries, JSON colour, raw lines, the pager.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { summary } from '../../src/output/format.js';
import { colorJson } from '../../src/output/json-color.js';
import { pagerCommand, writeOut } from '../../src/output/pager.js';
import { rawLines } from '../../src/output/query.js';
import stringWidth from 'string-width';
import { breakLongWords, fitColumns, outputWidth, renderTable, wordsFit } from '../../src/output/table.js';
import { until } from '../helpers.js';

describe('fitColumns', () => {
  const rows = [
    ['ID', 'a description of some length, long enough to need wrapping at eighty columns'],
    ['Image', 'https://cdn.example.com/some/long/path/to/an/image/file.png'],
  ];

  it('leaves a table that fits alone', () => {
    expect(fitColumns(rows, 200)).toBeUndefined();
    expect(fitColumns(rows, undefined)).toBeUndefined();
  });

  it('narrows the widest column until the table fits, borders included', () => {
    const widths = fitColumns(rows, 60)!;
    expect(widths[0]).toBe(7);
    expect(widths.reduce((a, b) => a + b, 0) + widths.length + 1).toBe(60);
  });

  it('keeps every word whole while the table can fit so, narrowing the others', () => {
    const id = '20261123-084012-1a2b';
    const widths = fitColumns([['WHEN', 'TARGET', 'OUTCOME'], ['2026-11-23 08:40:12Z', `run ${id}`, 'applied, and a long explanation of what happened to every line']], 52)!;
    expect(widths[1]).toBeGreaterThanOrEqual(id.length + 2);
    expect(widths.reduce((a, b) => a + b, 0) + widths.length + 1).toBe(52);
    expect(wordsFit([['a', id]], 30)).toBe(true);
    expect(wordsFit([['a', id]], 20)).toBe(false);
  });

  it('breaks a word too long for its column across lines instead of cutting it', () => {
    const url = 'https://cdn.example.com/a/very/long/path.png';
    const broken = breakLongWords(`see ${url} now`, 10);
    expect(broken.split('\n').every((line) => line.split(' ').every((word) => word.length <= 10))).toBe(true);
    expect(broken.replace(/\n/g, '')).toBe(`see ${url} now`);
    // Colour codes are not counted, and stay where they were.
    expect(breakLongWords('\x1b[1mabcdef\x1b[22m', 3)).toBe('\x1b[1mabc\ndef\x1b[22m');
  });

  it('measures in terminal columns: a Japanese name and an emoji take two each, an accent none', () => {
    // Natural widths, padding included: 2 + the widest cell's columns.
    expect(fitColumns([['名前', '商品'], ['x', 'y']], 200)).toBeUndefined();
    const widths = fitColumns([['ID', '有機栽培コーヒー豆ダークロースト'], ['1', 'café 👍']], 30)!;
    expect(widths.reduce((a, b) => a + b, 0) + widths.length + 1).toBe(30);
    // Nine characters, eighteen columns: with padding and borders, 22 columns.
    expect(wordsFit([['有機栽培コーヒー豆']], 21)).toBe(false);
    expect(wordsFit([['有機栽培コーヒー豆']], 22)).toBe(true);
  });

  it('breaks a wide word between whole characters, never inside an emoji or before its accent', () => {
    expect(breakLongWords('👍👍👍👍👍', 4)).toBe('👍👍\n👍👍\n👍');
    expect(breakLongWords('有機栽培コーヒー', 6)).toBe('有機栽\n培コー\nヒー');
    // A family emoji is one character of several code points; an e with its accent is one column.
    expect(breakLongWords('👨‍👩‍👧👨‍👩‍👧', 2)).toBe('👨‍👩‍👧\n👨‍👩‍👧');
    expect(breakLongWords('cafe\u0301cafe\u0301', 4)).toBe('cafe\u0301\ncafe\u0301');
  });

  it('draws a table of Japanese names and emoji within the width, nothing cut or split', async () => {
    const rows = [
      { id: 1, name: '有機栽培コーヒー豆ダークローストの大袋', note: '👍👍👍👍👍👍👍👍👍👍' },
      { id: 2, name: 'ほうじ茶ラテ', note: 'ok' },
    ];
    for (const width of [40, 28]) {
      const table = await renderTable(rows, { color: 0 }, width);
      const lines = table.split('\n');
      for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
      expect(table).not.toContain('…');
      expect(table).not.toContain('\ufffd');
      // Each column read top to bottom holds its cells whole.
      const columns: string[] = [];
      for (const line of lines) line.split('│').slice(1, -1).forEach((cell, i) => (columns[i] = (columns[i] ?? '') + cell.trim()));
      expect(columns[1]).toContain('有機栽培コーヒー豆ダークローストの大袋');
      expect(columns[1]).toContain('ほうじ茶ラテ');
      expect(columns[2]).toContain('👍👍👍👍👍👍👍👍👍👍');
    }
  });

  it('ignores colour codes when measuring', () => {
    expect(fitColumns([['\x1b[1mID\x1b[22m', 'x']], 10)).toBeUndefined();
  });

  it('takes the terminal width on a terminal, COLUMNS in a pipe, else 80', () => {
    expect(outputWidth({ isTTY: true, columns: 80 }, { COLUMNS: '50' })).toBe(80);
    expect(outputWidth({ isTTY: false }, { COLUMNS: '50' })).toBe(50);
    expect(outputWidth({ isTTY: false }, {})).toBe(80);
  });
});

describe('summary', () => {
  it.each([
    [{ a: 1 }, '{"a":1}'],
    [{ id: 7, name: 'Apparel', slug: 'apparel', description: 'long enough to summarise' }, 'Apparel'],
    [['order.created', 'order.updated', 'subscription.updated'], 'order.created, order.updated, subscription.updated'],
    [[{ a: 'xxxxxxxxxxxxx' }, { a: 'xxxxxxxxxxxxxxxx' }, { a: 'x' }], '3 items'],
    [{ b: 1, c: 2, d: 3, e: 4, f: 'a longer value to pass forty' }, '{b, c, d, e, …}'],
  ])('%j → %s', (value, expected) => {
    expect(summary(value)).toBe(expected);
  });
});

describe('colorJson', () => {
  it('colours keys, strings and other values, leaving the text the same', () => {
    const json = JSON.stringify({ code: 'a "b": 1', n: -1.5, ok: true, none: null }, null, 2);
    const colored = colorJson(json, new Chalk({ level: 1 }));
    expect(colored).toContain('\x1b[34m\x1b[1m"code"\x1b[22m\x1b[39m:');
    expect(colored).toContain('\x1b[32m"a \\"b\\": 1"\x1b[39m');
    expect(colored).toContain('\x1b[33m-1.5\x1b[39m');
    expect(colored.replace(/\x1b\[[0-9;]*m/g, '')).toBe(json);
  });
});

describe('rawLines', () => {
  it.each([
    ['text', 'text\n'],
    [3, '3\n'],
    [null, 'null\n'],
    [['a', 2, true], 'a\n2\ntrue\n'],
    [[{ a: 1 }], undefined],
    [{ a: 1 }, undefined],
  ])('%j', (value, expected) => {
    expect(rawLines(value)).toBe(expected);
  });
});

describe('pagerCommand', () => {
  it('prefers STORE_ADMIN_PAGER, then PAGER; empty or cat turns it off', () => {
    expect(pagerCommand({ STORE_ADMIN_PAGER: 'most', PAGER: 'more' })).toBe('most');
    expect(pagerCommand({ PAGER: 'more' })).toBe('more');
    expect(pagerCommand({ STORE_ADMIN_PAGER: '', PAGER: 'more' })).toBeUndefined();
    expect(pagerCommand({ PAGER: 'cat' })).toBeUndefined();
    expect(pagerCommand({ PATH: '/nonexistent' })).toBeUndefined();
  });
});

describe('writeOut', () => {
  it('pages long text on a terminal; Ctrl-C is left to the pager, SIGTERM ends it with the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-admin-pager-'));
    const started = join(dir, 'started');
    const got = join(dir, 'got');
    // Reads the text, says it is up, then waits as less waits for a key: until it is ended.
    const pager = `cat > '${got}'; echo $$ > '${started}'; exec sleep 600`;
    let written = '';
    const io = {
      stdin: Object.assign(Readable.from([]), { isTTY: true }),
      stdout: { isTTY: true, rows: 5, write: (chunk: string) => ((written += chunk), true) },
      stderr: { write: () => true },
      env: { PATH: process.env.PATH, STORE_ADMIN_PAGER: pager },
    };
    const stop = new AbortController();
    const force = new AbortController();
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join('');
    const listeners = process.listenerCount('SIGINT');
    const paging = writeOut(text, io, () => [stop.signal, force.signal]);
    let pid = 0;
    try {
      pid = await until('the pager to start', () => existsSync(started) && Number(readFileSync(started, 'utf8')));
      // The run's signals, not listeners on the process, decide.
      expect(process.listenerCount('SIGINT')).toBe(listeners);
      stop.abort('SIGINT');
      expect(() => process.kill(pid, 0)).not.toThrow();
      force.abort('SIGTERM');
      await paging;
      expect(() => process.kill(pid, 0)).toThrow();
      expect(readFileSync(got, 'utf8')).toBe(text);
      // The pager ran: the text is not printed a second time.
      expect(written).toBe('');
    } finally {
      try {
        // Still running only if the test failed.
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {
        // ended, as it should have
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
