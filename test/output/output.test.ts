// ctx.output, the one owner of what a run prints, through the context's seams: fake streams in
// place of the process's, the options a command line would bind.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.js';
import type { IO, OutputStream } from '../../src/io.js';
import type { GlobalOptions } from '../../src/options.js';

function stream(isTTY: boolean): OutputStream & { text: string } {
  const out = {
    text: '',
    isTTY,
    columns: 80,
    rows: 1000,
    write(chunk: string) {
      out.text += chunk;
      return true;
    },
  };
  return out;
}

/** A context over fake streams, bound to the options a command line would give. */
function run(options: Partial<GlobalOptions>, terminal = false) {
  const stdout = stream(terminal);
  const stderr = stream(terminal);
  const io: IO = { stdin: Object.assign(Readable.from([]), { isTTY: terminal }), stdout, stderr, env: { PAGER: 'cat', NO_COLOR: '1' } };
  const interrupts = { signal: new AbortController().signal, forceSignal: new AbortController().signal };
  const ctx = createContext(io, interrupts, () => Promise.reject(new Error('no command tree in this test')));
  ctx.bind({ input: false, color: true, ...options });
  return { ctx, stdout, stderr };
}

describe('ctx.output', () => {
  it('prints a result as the run asks: JSON in a pipe, --query then --raw applied', async () => {
    const data = { id: 7, tags: ['a', 'b'] };
    const plain = run({});
    await plain.ctx.output.result(data);
    expect(plain.stdout.text).toBe('{"id":7,"tags":["a","b"]}\n');
    const raw = run({ query: 'tags', raw: true });
    await raw.ctx.output.result(data);
    expect(raw.stdout.text).toBe('a\nb\n');
    const ndjson = run({ output: 'ndjson' });
    await ndjson.ctx.output.result([{ id: 1 }, { id: 2 }]);
    expect(ndjson.stdout.text).toBe('{"id":1}\n{"id":2}\n');
    expect(plain.stderr.text + raw.stderr.text + ndjson.stderr.text).toBe('');
  });

  it("shows a person's text in place of a table, unless --query reshapes the result or --raw can print it bare", async () => {
    const text = (data: { id: number }) => `Thing ${data.id}.\n`;
    const person = run({}, true);
    expect(person.ctx.format).toBe('table');
    await person.ctx.output.result({ id: 7 }, { text });
    expect(person.stdout.text).toBe('Thing 7.\n');
    const queried = run({ output: 'table', query: 'id' }, true);
    await queried.ctx.output.result({ id: 7 }, { text });
    expect(queried.stdout.text).not.toContain('Thing');
    expect(queried.stdout.text).toContain('7');
    const raw = run({ raw: true }, true);
    await raw.ctx.output.result('bare', { text: () => 'not this\n' });
    expect(raw.stdout.text).toBe('bare\n');
    const json = run({ json: true }, true);
    await json.ctx.output.result({ id: 7 }, { text });
    expect(JSON.parse(json.stdout.text)).toEqual({ id: 7 });
  });

  it('gives a result with no table JSON where a table would be chosen', async () => {
    const person = run({}, true);
    await person.ctx.output.result({ id: 7 }, { table: false });
    expect(JSON.parse(person.stdout.text)).toEqual({ id: 7 });
  });

  it('writes records as JSON lines, a query applied the way the caller says, or as text with the table format', async () => {
    const lines = run({ query: 'id' });
    const sink = await lines.ctx.output.records<{ id: number }>({ query: (record, search) => ({ line: search(record) }) });
    sink.write({ id: 1 });
    sink.write({ id: 2 });
    sink.end();
    expect(lines.stdout.text).toBe('{"line":1}\n{"line":2}\n');
    const person = run({}, true);
    const text = await person.ctx.output.records<{ id: number }>({ text: (record, i) => `${i}: ${record.id}\n` });
    text.write({ id: 5 });
    text.write({ id: 6 });
    text.end();
    expect(person.stdout.text).toBe('0: 5\n1: 6\n');
  });

  it('keeps prose off stdout, one printable line each, and off stderr too with --quiet; log is kept', async () => {
    const noisy = run({});
    noisy.ctx.output.prose('a note\nwith \x1b[31mred');
    noisy.ctx.output.log('an error\n');
    expect(noisy.stdout.text).toBe('');
    expect(noisy.stderr.text).toBe('a note with \\u001b[31mred\nan error\n');
    const quiet = run({ quiet: true });
    quiet.ctx.output.prose('a note');
    quiet.ctx.output.log('an error\n');
    expect(quiet.stderr.text).toBe('an error\n');
  });

  it("writes lines above a status line that is drawn, and draws it again below them", async () => {
    const { ctx, stderr } = run({}, true);
    ctx.output.status.draw('working');
    ctx.output.prose('a note');
    expect(stderr.text).toBe('\r\x1b[2Kworking\r\x1b[2Ka note\nworking');
  });

  it('never prints a secret the run has learned', async () => {
    const { ctx, stdout, stderr } = run({ raw: true });
    ctx.io.protect?.('tok_secret_0123456789');
    await ctx.output.result('the token is tok_secret_0123456789');
    ctx.output.prose('echoed tok_secret_0123456789');
    expect(stdout.text).toBe('the token is ***\n');
    expect(stderr.text).toBe('echoed ***\n');
  });
});

describe('the output rule (safeText)', () => {
  it('escapes a line a CI runner reads as a workflow command, and leaves one that only starts with ::', async () => {
    const { safeText } = await import('../../src/printable.js');
    expect(safeText('ok\n::add-mask::x\n  ::stop-commands::zz\n##[error]fake\n')).toBe('ok\n\\u003a:add-mask::x\n  \\u003a:stop-commands::zz\n\\u0023#[error]fake\n');
    expect(safeText('(127.0.0.1, localhost,\n::1) is never reached\n##[ unclosed\n')).toBe('(127.0.0.1, localhost,\n::1) is never reached\n##[ unclosed\n');
    expect(safeText('a \u001b]0;title\u0007 b\rc')).toBe('a \\u001b]0;title\\u0007 b c');
  });

  describe("a store's hostile text through every output format", () => {
    const FIRST = '=X\u001b]0;pwn\u0007';
    const LAST = '@S\n::set-output name=x::y\r::error::bad';
    const NOTE = 'a\u009b2Jb\u202ec\u2028d';
    const record = { id: 1, first_name: FIRST, last_name: LAST, note: NOTE };
    /** What the run printed, for a result and for a list streamed page by page. */
    const printed = async (options: Partial<GlobalOptions>, terminal = false) => {
      const whole = run(options, terminal);
      await whole.ctx.output.result([record]);
      const streamed = run(options, terminal);
      const sink = await streamed.ctx.output.list({ stream: true });
      sink.page([record], { next: null, previous: null });
      await sink.end(true);
      return [whole.stdout.text, streamed.stdout.text] as const;
    };
    /** No line, however a terminal or a CI runner splits lines, moves the terminal or starts a workflow command. */
    const expectHarmless = (text: string, what: string) => {
      expect(text, what).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
      for (const line of text.split(/\r\n|\r|\n|\u2028/)) expect(line.trimStart(), what).not.toMatch(/^(::|##\[)/);
    };

    it('JSON and NDJSON: escapes for what JSON leaves raw, the same value read back', async () => {
      const [json, streamedJson] = await printed({});
      const [ndjson, streamedNdjson] = await printed({ output: 'ndjson' });
      for (const text of [json, streamedJson, ndjson, streamedNdjson]) expectHarmless(text, text);
      expect(JSON.parse(json)).toEqual([record]);
      expect(JSON.parse(streamedJson).results).toEqual([record]);
      for (const text of [ndjson, streamedNdjson]) expect(JSON.parse(text)).toEqual(record);
    });

    it('a table: controls shown as escapes', async () => {
      for (const text of await printed({ output: 'table' })) {
        expectHarmless(text, text);
        expect(text).toContain('=X\\u001b]0;pwn\\u0007');
      }
    });

    it('CSV and TSV: controls shown as escapes, formulas neutralised, and no line of a cell starts a workflow command', async () => {
      for (const text of await printed({ output: 'csv' })) {
        expectHarmless(text, text);
        expect(text).toBe(`id,first_name,last_name,note\n1,'=X\\u001b]0;pwn\\u0007,"'@S\n\\u003a:set-output name=x::y ::error::bad",a\\u009b2Jb\\u202ec\u2028d\n`);
      }
      for (const text of await printed({ output: 'tsv' })) {
        expectHarmless(text, text);
        expect(text).toBe(`id\tfirst_name\tlast_name\tnote\n1\t'=X\\u001b]0;pwn\\u0007\t'@S\\n::set-output name=x::y\\r::error::bad\ta\\u009b2Jb\\u202ec\u2028d\n`);
      }
      // A row's first cell starts its line.
      for (const output of ['csv', 'tsv'] as const) {
        const first = run({ output, columns: ['name'] });
        await first.ctx.output.result([{ name: '::add-mask::x' }, { name: '##[error]fake' }]);
        expect(first.stdout.text).toBe('name\n\\u003a:add-mask::x\n\\u0023#[error]fake\n');
      }
    });

    it('--csv-raw: cells as sent, controls and formulas included, but still no line that starts a workflow command', async () => {
      for (const text of await printed({ output: 'csv', csvRaw: true })) {
        for (const line of text.split(/\r\n|\r|\n/)) expect(line.trimStart()).not.toMatch(/^(::|##\[)/);
        expect(text).toBe(`id,first_name,last_name,note\n1,${FIRST},"@S\n\\u003a:set-output name=x::y\r\\u003a:error::bad",${NOTE}\n`);
      }
    });

    it('--raw: exact in a pipe, as a script asked; without its controls on a terminal', async () => {
      const piped = run({ query: '[0].last_name', raw: true });
      await piped.ctx.output.result([record]);
      expect(piped.stdout.text).toBe(`${LAST}\n`);
      const shown = run({ query: '[0].first_name', raw: true }, true);
      await shown.ctx.output.result([record]);
      expect(shown.stdout.text).toBe('=X\\u001b]0;pwn\\u0007\n');
    });
  });
});
