// One rule says whether a change may have been applied though it ended in an error, and one module
// says where the history's files are: a single change's entry and a bulk run's journal agree.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError, InterruptedError, NetworkError, NotStartedError, UnknownOutcomeError } from '../../src/api/errors.js';
import { mayHaveApplied, outcomeOf } from '../../src/journal/history.js';
import { historyDir, historyPaths, runFile, runOfFile, runOfJournal } from '../../src/journal/paths.js';
import { newRunId } from '../../src/journal/run-journal.js';

describe('a change that ended in an error', () => {
  it('may have been applied when its answer was lost or it was interrupted in flight', () => {
    expect(mayHaveApplied(new UnknownOutcomeError('the answer was lost'))).toBe(true);
    expect(mayHaveApplied(new InterruptedError('Interrupted'))).toBe(true);
    expect(outcomeOf(new UnknownOutcomeError('lost'))).toEqual({ outcome: 'unknown', reason: 'lost' });
  });

  it('was not applied when it never left, or the store refused it', () => {
    expect(mayHaveApplied(new NotStartedError('stopped before its turn'))).toBe(false);
    expect(mayHaveApplied(new ApiError(404, undefined, 'Not Found'))).toBe(false);
    expect(mayHaveApplied(new NetworkError('refused', 'connection refused', { sent: false }))).toBe(false);
    expect(mayHaveApplied(new Error('a bug'))).toBe(false);
    expect(outcomeOf(new ApiError(422, undefined, 'Unprocessable'))).toEqual({ outcome: 'failed', status: 422, reason: 'Unprocessable' });
  });
});

describe('the history folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-paths-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is made private, with its runs beside the log', () => {
    const made = historyDir(dir);
    const paths = historyPaths(dir);
    expect(made).toBe(paths.dir);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
    expect(statSync(paths.runs).isDirectory()).toBe(true);
    expect(paths.log).toBe(join(dir, 'history', 'history.jsonl'));
  });

  it('names a run\'s journal and lock by its id, and refuses anything that is not an id', () => {
    const id = newRunId(new Date('2026-01-31T09:30:00Z'));
    expect(runFile(dir, id, 'journal')).toBe(join(historyPaths(dir).runs, `${id}.jsonl`));
    expect(runOfJournal(`${id}.jsonl`)).toBe(id);
    expect(runOfJournal(`${id}.lock`)).toBeUndefined();
    expect(runOfFile(`${id}.lock.take`)).toBe(id);
    expect(() => runFile(dir, '../../etc/passwd', 'lock')).toThrow(RangeError);
  });
});
