// CSV and TSV cells: quoting as RFC 4180 says, TSV escapes, and text a spreadsheet would run as a
// formula neutralised (OWASP's CSV injection advice), plain numbers left alone.
import { describe, expect, it } from 'vitest';
import { project, valueAt } from '../../src/output/columns.js';
import { headerRow, neutralised, recordRow, restored } from '../../src/output/csv.js';

const csv = { format: 'csv' } as const;
const tsv = { format: 'tsv' } as const;

describe('a cell', () => {
  it('is quoted where it holds a comma, a quote or a line break, quotes doubled', () => {
    expect(recordRow({ a: 'x,y', b: 'say "hi"', c: 'two\nlines', d: 'plain' }, ['a', 'b', 'c', 'd'], csv)).toBe('"x,y","say ""hi""","two\nlines",plain\n');
  });

  it('is neutralised when a spreadsheet would run it, unless raw', () => {
    for (const formula of ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x")']) expect(neutralised(formula)).toBe(`'${formula}`);
    for (const number of ['-12.50', '+3', '-0', '-.5', '12']) expect(neutralised(number)).toBe(number);
    expect(recordRow({ name: '=1+1' }, ['name'], { format: 'csv', raw: true })).toBe('=1+1\n');
    expect(recordRow({ tags: ['=evil', 'ok'] }, ['tags'], csv)).toBe(`"'=evil,ok"\n`);
  });

  it("reads back as written: --each removes the ' neutralising added, and only that one", () => {
    for (const value of ['+1404 555 8669', '=HYPERLINK("x")', '@S', '-x', '\tx', "'quoted", "'+1", "''=x", "'", '-12.50', 'plain', '']) {
      expect(restored(neutralised(value)), value).toBe(value);
    }
    expect(neutralised("'+1")).toBe("''+1");
    expect(neutralised("'quoted")).toBe("'quoted");
  });

  it('shows control characters as escapes, unless raw', () => {
    const record = { a: '=X\u001b]0;pwn\u0007', b: 'a\u009bb\u202ec\rd' };
    expect(recordRow(record, ['a', 'b'], csv)).toBe(`'=X\\u001b]0;pwn\\u0007,"a\\u009bb\\u202ec d"\n`);
    expect(recordRow(record, ['a', 'b'], tsv)).toBe(`'=X\\u001b]0;pwn\\u0007\ta\\u009bb\\u202ec\\rd\n`);
    expect(recordRow(record, ['a', 'b'], { format: 'csv', raw: true })).toBe(`=X\u001b]0;pwn\u0007,"a\u009bb\u202ec\rd"\n`);
  });

  it('holds a list of plain values joined by commas (as --each reads it back), anything else as JSON', () => {
    expect(recordRow({ ids: [1, 2], user: { id: 1 }, none: null }, ['ids', 'user', 'none', 'missing'], csv)).toBe('"1,2","{""id"":1}",,\n');
    expect(recordRow(42, ['value'], csv)).toBe('42\n');
  });

  it('escapes tabs, line breaks and backslashes in TSV', () => {
    expect(headerRow(['a', 'b'], tsv)).toBe('a\tb\n');
    expect(recordRow({ a: 'x\ty', b: 'two\nlines\\' }, ['a', 'b'], tsv)).toBe('x\\ty\ttwo\\nlines\\\\\n');
  });
});

describe('a dotted path', () => {
  it('reaches into objects and lists, and finds nothing where there is nothing', () => {
    const order = { number: '1', user: { email: 'a@example.com' }, lines: [{ sku: 'A' }] };
    expect(valueAt(order, 'user.email')).toBe('a@example.com');
    expect(valueAt(order, 'lines.0.sku')).toBe('A');
    expect(valueAt(order, 'lines.5.sku')).toBeUndefined();
    expect(valueAt(order, 'constructor')).toBeUndefined();
    expect(project(order, ['number', 'user.email', '__proto__'])).toEqual({ number: '1', 'user.email': 'a@example.com', ['__proto__']: null });
  });
});
