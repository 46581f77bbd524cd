// CSV input for --each: a header row maps columns to the command's arguments and body fields.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/run/bulk/csv.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from '../cli/run.js';

describe('parseCsv', () => {
  it('reads quotes, doubled quotes, line breaks in quotes, CRLF, blank lines, comments and a missing last newline', () => {
    const csv = parseCsv('id,reason,other_message\r\n\r\n# a comment\r\n1,other,"moving, abroad"\r\n2,"other","said ""stop""\nthen left"\r\n3,product_too_expensive,');
    expect(csv.header).toEqual(['id', 'reason', 'other_message']);
    expect(csv.rows.map((row) => [row.line, row.cells])).toEqual([
      [4, ['1', 'other', 'moving, abroad']],
      [5, ['2', 'other', 'said "stop"\nthen left']],
      [7, ['3', 'product_too_expensive', '']],
    ]);
    expect(csv.rows[0]!.text).toBe('1,other,"moving, abroad"');
    expect(() => parseCsv('id\n"open')).toThrow('line 2: a quoted field is not closed');
  });

  // RFC 4180, section 2, rule by rule.
  it('keeps the spaces of a field: they are part of it (rule 4)', () => {
    const csv = parseCsv('number,message\n10001,  two leading spaces\n10002,trailing ,\n');
    expect(csv.rows.map((row) => row.cells)).toEqual([
      ['10001', '  two leading spaces'],
      ['10002', 'trailing ', ''],
    ]);
  });

  it('takes CRLF and LF line ends alike, with or without one after the last record (rules 1 and 2)', () => {
    for (const text of ['a,b\r\n1,2\r\n', 'a,b\n1,2\n', 'a,b\r\n1,2', 'a,b\n1,2']) expect(parseCsv(text).rows.map((row) => row.cells)).toEqual([['1', '2']]);
  });

  it('reads a header, and a last field left empty after the last comma (rules 3 and 4)', () => {
    const csv = parseCsv('id,reason,other_message\n1,other,\n');
    expect(csv.header).toEqual(['id', 'reason', 'other_message']);
    expect(csv.headerText).toBe('id,reason,other_message');
    expect(csv.rows[0]!.cells).toEqual(['1', 'other', '']);
  });

  it('reads quoted fields with commas, CRLF, and quotes written twice; an empty quoted field is empty (rules 5, 6 and 7)', () => {
    const csv = parseCsv('a,b,c\n"x, y","line one\r\nline two","a ""quoted"" word"\n"",2,""""\n');
    expect(csv.rows.map((row) => [row.line, row.cells])).toEqual([
      [2, ['x, y', 'line one\r\nline two', 'a "quoted" word']],
      [4, ['', '2', '"']],
    ]);
    expect(csv.rows[0]!.text).toBe('"x, y","line one\r\nline two","a ""quoted"" word"');
  });

  it('refuses text after the closing quote of a field, naming the line; takes a quote inside an unquoted field as it is', () => {
    expect(() => parseCsv('a,b\n1,"x"y\n')).toThrow('line 2: text after the closing quote of a field');
    expect(() => parseCsv('a\n"x" \n')).toThrow('line 2: text after the closing quote of a field');
    expect(parseCsv('a,b\n5" ruler, x\n').rows[0]!.cells).toEqual(['5" ruler', ' x']);
  });

  it("drops the byte order mark Excel's CSV UTF-8 starts with", () => {
    const csv = parseCsv('\ufeffid,message\r\n1,hi\r\n');
    expect(csv.header).toEqual(['id', 'message']);
    expect(csv.headerText).toBe('id,message');
  });

  it('refuses a file with no header row', () => {
    expect(() => parseCsv('\n# only a comment\n')).toThrow('no header row');
  });
});

describe('--each FILE.csv', () => {
  const store = memoryStore();
  const ctx = useSandbox({ store });
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });

  it('maps named columns to arguments and fields, flags filling what a row leaves empty', async () => {
    const file = join(dir, 'cancel.csv');
    writeFileSync(file, 'Subscription ID,Reason,Other message\r\n# from the spreadsheet\r\n1,other,"Moving abroad, no delivery"\r\n\r\n2,,');
    const r = await runCli(['subscriptions', 'cancel', '--each', file, '--reason', 'product_too_expensive', '--yes', '--rate', '0'], { env: env() });
    // "Subscription ID" is not a column it knows: the argument is called "id".
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('store-admin: --each: the column "Subscription ID" is not an argument or field of this command');
    expect(r.stderr).toContain('Columns it takes: id, cancel_reason');
    writeFileSync(file, 'id,Reason,Other message\r\n# from the spreadsheet\r\n1,other,"Moving abroad, no delivery"\r\n\r\n2,,');
    const ok = await runCli(['subscriptions', 'cancel', '--each', file, '--reason', 'product_too_expensive', '--yes', '--rate', '0'], { env: env() });
    expect(ok.code, ok.stderr).toBe(0);
    expect(store.state.records.subscriptions['1']).toMatchObject({ status: 'canceled', cancel_reason: 'other', cancel_reason_other_message: 'Moving abroad, no delivery' });
    expect(store.state.records.subscriptions['2']).toMatchObject({ status: 'canceled', cancel_reason: 'product_too_expensive' });
  });

  it('takes an argument without the spaces around it, as a hand-written CSV has them', async () => {
    const file = join(dir, 'spaced.csv');
    writeFileSync(file, 'message,number\nspaced out, 10003\n');
    const r = await runCli(['orders', 'add-note', '--each', file, '--rate', '0'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(Object.values(store.state.records.orderNotes).filter((note) => note.order_number === '10003').map((note) => note.message)).toContain('spaced out');
  });

  it('refuses a column given twice, or two columns for one argument or field, in one line, before sending anything', async () => {
    const file = join(dir, 'twice.csv');
    const before = ctx.sandbox.counters.received;
    for (const [header, message] of [
      ['id,reason,Reason', '--each: the column "Reason" is given twice'],
      ['id,reason,cancel_reason', '--each: the columns "reason" and "cancel_reason" both give cancel_reason'],
      ['id,ID,reason', '--each: the column "ID" is given twice'],
    ]) {
      writeFileSync(file, `${header}\n1,other,product_too_expensive\n`);
      const r = await runCli(['subscriptions', 'cancel', '--each', file, '--yes', '--rate', '0'], { env: env() });
      expect(r.code, header).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`store-admin: ${message}`);
      expect(r.stderr.split('\n').filter((line) => line.startsWith('store-admin:'))).toHaveLength(1);
    }
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('checks every row before sending anything, and writes the header into --failed', async () => {
    const file = join(dir, 'notes.csv');
    const before = ctx.sandbox.counters.received;
    writeFileSync(file, 'number,message\n10001,hello\n10002\n');
    const short = await runCli(['orders', 'add-note', '--each', file, '--rate', '0'], { env: env() });
    expect(short.code).toBe(2);
    expect(short.stderr.split('\n')[0]).toBe('store-admin: --each: line 3: 1 values for 2 columns');
    writeFileSync(file, 'message\nhello\n');
    const noArg = await runCli(['orders', 'add-note', '--each', file, '--rate', '0'], { env: env() });
    expect(noArg.stderr.split('\n')[0]).toBe('store-admin: --each: the CSV file has no column for <number>');
    expect(ctx.sandbox.counters.received).toBe(before);

    writeFileSync(file, 'number,message\n10001,hello\n99999,"lost, order"\n');
    const failed = join(dir, 'failed.csv');
    const r = await runCli(['orders', 'add-note', '--each', file, '--failed', failed, '--rate', '0'], { env: env() });
    expect(r.code).toBe(1);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(failed, 'utf8')).toBe('number,message\n99999,"lost, order"\n');
  });
});
