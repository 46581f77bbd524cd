// What GitHub Actions reads from a step: outputs (one line, or a delimited block for text over
// several lines), Markdown for the summary, and error annotations escaped so that a store's text
// can neither end the command nor start another.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { IO } from '../../src/io.js';
import { addSummary, errorAnnotation, failureSummary, markdownCode, setOutputs } from '../../src/output/github-actions.js';
import { readGithubOutput } from '../cli/github-output.js';

const dir = mkdtempSync(join(tmpdir(), 'store-admin-gha-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const io = (env: Record<string, string>): IO => ({ env, stdin: process.stdin, stdout: { write: () => true }, stderr: { write: () => true }, scrub: (text) => text.split('tok_secret_123456').join('***') });

describe('GitHub Actions files', () => {
  it('does nothing outside Actions', () => {
    expect(() => setOutputs(io({}), { a: 1 })).not.toThrow();
    expect(() => addSummary(io({}), 'x')).not.toThrow();
  });

  it('appends outputs, a value over several lines as a block whose delimiter it does not contain', () => {
    const file = join(dir, 'output');
    writeFileSync(file, 'earlier=1\n');
    setOutputs(io({ GITHUB_OUTPUT: file }), { export_id: 42, path: 'a\nb=c<<d', sha256: 'ab' });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('earlier=1\nexport_id=42\npath<<ghadelimiter_')).toBe(true);
    expect(readGithubOutput(text)).toEqual({ earlier: '1', export_id: '42', path: 'a\nb=c<<d', sha256: 'ab' });
  });

  it('never writes the token, and fails clearly when the file cannot be written', () => {
    const file = join(dir, 'summary');
    addSummary(io({ GITHUB_STEP_SUMMARY: file }), 'token tok_secret_123456');
    expect(readFileSync(file, 'utf8')).toBe('token ***\n');
    expect(() => setOutputs(io({ GITHUB_OUTPUT: join(dir, 'missing', 'out') }), { a: 1 })).toThrow(/^Cannot append to \$GITHUB_OUTPUT \(.*missing\/out\): ENOENT/);
  });

  it('shows any text as code in a table cell', () => {
    expect(markdownCode('orders.csv')).toBe('`orders.csv`');
    expect(markdownCode('a|b\nc')).toBe('`a\\|b c`');
    expect(markdownCode('x `y` z')).toBe('``x `y` z``');
    expect(markdownCode('`edge')).toBe('`` `edge ``');
  });

  it("shows a failure in the summary as a code block that a store's text cannot leave", () => {
    expect(failureSummary(5, 'Gave up waiting for export 7', 'Fetch it later: store-admin exports download 7 --wait')).toBe(
      '### store-admin failed (exit 5)\n\n```text\nGave up waiting for export 7\nhint: Fetch it later: store-admin exports download 7 --wait\n```\n',
    );
    const hostile = failureSummary(1, 'the store said ```\n# <img src=x onerror=alert(1)>');
    expect(hostile.startsWith('### store-admin failed (exit 1)\n\n````text\n')).toBe(true);
    expect(hostile.endsWith('\n````\n')).toBe(true);
    // One line: the store's line break is shown, not followed.
    expect(hostile.split('\n')).toHaveLength(6);
  });

  it('escapes an annotation as workflow commands require', () => {
    expect(errorAnnotation(5, 'Gave up: 100% pending', 'Run: a, b')).toBe('::error title=store-admin (exit 5)::Gave up: 100%25 pending%0ARun: a, b\n');
    // A store's text with a line break cannot start a command of its own.
    const line = errorAnnotation(1, 'bad\n::add-mask::x\r\n::stop-commands::y');
    expect(line.split('\n')).toEqual([expect.stringMatching(/^::error title=store-admin \(exit 1\)::bad/), '']);
    expect(errorAnnotation(1, 'x').startsWith('::error title=store-admin (exit 1)::')).toBe(true);
  });
});
