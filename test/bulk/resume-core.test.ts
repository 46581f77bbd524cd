// The decisions of --resume, without a store or a process: which earlier run a resume names or
// finds, what it refuses (another input, another command, other flags, no such run), which lines
// it sends again, and the command line that resumes a run. resume.test.ts runs them end to end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunJournal, readRun, sha256, type RunHeader } from '../../src/journal/run-journal.js';
import { findRun, remaining, resumeCommand, type ResumeTarget } from '../../src/run/bulk/resume.js';
import type { Item } from '../../src/run/bulk/input.js';

const dir = mkdtempSync(join(tmpdir(), 'store-admin-resume-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const INPUT = { source: 'notes.txt', sha256: sha256('1\n2\n3\n'), lines: 3 };
const header = (id: string, changes: Partial<Omit<RunHeader, 'type'>> = {}): Omit<RunHeader, 'type'> => ({
  id,
  at: '2026-03-01T10:00:00.000Z',
  command: 'customers add-note',
  operation: 'usersNotesCreate',
  store: 'shop.example.com',
  input: INPUT,
  body: 'requests-1',
  fields: { 'params.id': 'ids', 'body.message': 'hello' },
  ...changes,
});
const target = (changes: Partial<ResumeTarget> = {}): ResumeTarget => ({
  run: true,
  operation: 'usersNotesCreate',
  command: 'customers add-note',
  store: 'shop.example.com',
  input: INPUT,
  requestsSha: 'requests-1',
  fields: { 'params.id': 'ids', 'body.message': 'hello' },
  flagOf: (field) => (field === 'body.message' ? '--message' : '<id>'),
  ...changes,
});

// An older run over another input, then the run to resume: line 1 applied, 2 sent with no answer, 3 never sent.
const older = RunJournal.create(dir, header('20260301-090000-aaaa', { input: { ...INPUT, sha256: sha256('9\n'), lines: 1 } }));
older.end();
const run = RunJournal.create(dir, header('20260301-100000-bbbb'));
run.sent(1);
run.outcome(1, 'applied', { status: 200 });
run.sent(2);
const ID = '20260301-100000-bbbb';

describe('findRun', () => {
  it('finds the latest run of the command over the same input on the same store, or the one named', () => {
    expect(findRun(dir, target()).header.id).toBe(ID);
    expect(findRun(dir, target({ run: ID })).header.id).toBe(ID);
  });

  it('refuses a run that does not exist, or an id that is no run id', () => {
    expect(() => findRun(dir, target({ run: '20200101-000000-abcd' }))).toThrow('--resume: no run 20200101-000000-abcd');
    expect(() => findRun(dir, target({ run: '../../etc/passwd' }))).toThrow('--resume: no run ../../etc/passwd');
  });

  it('says how the input changed since the latest run: other lines, other text, another file', () => {
    const moreLines = { ...INPUT, sha256: sha256('1\n2\n3\n4\n'), lines: 4 };
    expect(() => findRun(dir, target({ run: ID, input: moreLines }))).toThrow(`--resume ${ID}: the input is not the one that run read (notes.txt has 4 lines, not 3)`);
    expect(() => findRun(dir, target({ input: moreLines }))).toThrow(
      `--resume: no earlier customers add-note run over this input on shop.example.com: since its latest run (${ID}), notes.txt has 4 lines, not 3`,
    );
    const otherText = { ...INPUT, sha256: sha256('3\n2\n1\n') };
    expect(() => findRun(dir, target({ input: otherText }))).toThrow(/notes\.txt has the same 3 lines, with other text \(checksum [0-9a-f]{12}, not [0-9a-f]{12}\)$/);
    expect(() => findRun(dir, target({ input: { source: '-', sha256: sha256('7\n'), lines: 1 } }))).toThrow(/the input is standard input, not notes\.txt$/);
  });

  it('refuses another command, another store, and names the flags that differ', () => {
    expect(() => findRun(dir, target({ run: ID, operation: 'ordersNotesCreate', command: 'orders add-note' }))).toThrow(`--resume ${ID}: that run was customers add-note, not orders add-note`);
    expect(() => findRun(dir, target({ run: ID, store: 'other.example.com' }))).toThrow(`--resume ${ID}: that run changed shop.example.com, not other.example.com`);
    expect(() => findRun(dir, target({ requestsSha: 'requests-2', fields: { 'params.id': 'ids', 'body.message': 'bye' } }))).toThrow(`--resume ${ID}: --message differs from that run's`);
    expect(() => findRun(dir, target({ requestsSha: 'requests-2', fields: {} }))).toThrow(`--resume ${ID}: --message, <id> differ from that run's`);
  });
});

describe('remaining', () => {
  const items = [1, 2, 3].map((line) => ({ line }) as Item);
  const record = readRun(dir, ID)!;

  it('sends the lines never sent and leaves out those whose answer was lost, unless --retry-unknown', () => {
    expect(remaining(items, record, false)).toEqual({ send: [items[2]], applied: 1, unknown: [items[1]] });
    expect(remaining(items, record, true)).toEqual({ send: [items[1], items[2]], applied: 1, unknown: [] });
  });
});

describe('resumeCommand', () => {
  it('is the command as given, its --resume replaced by the run, quoted for a shell where a word needs it', () => {
    expect(resumeCommand(['customers', 'add-note', '--each', 'notes.txt', '--message', "it's here", '--resume', '20260301-090000-aaaa'], ID)).toBe(
      `store-admin customers add-note --each notes.txt --message 'it'\\''s here' --resume ${ID}`,
    );
    expect(resumeCommand(['customers', 'add-note', '--resume=20260301-090000-aaaa', '--each', 'a b.txt', '--resume'], ID)).toBe(`store-admin customers add-note --each 'a b.txt' --resume ${ID}`);
  });
});
