// An --each run's records go through the run's one output: a JSON line per result, its answer run
// through --query; a query that cannot be applied to one answer is said on that line, and the
// change it reports still counts as done.
import { describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { useConfigDir } from '../cli/run.js';
import { runInProcess } from '../cli/in-process.js';

describe('--each records', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const run = (args: string[], stdin: string) =>
    runInProcess(args, { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir }, stdin);
  const records = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, any>)
      .sort((a, b) => a.line - b.line);

  it('applies --query to each answer, and not to a failure', async () => {
    const r = await run(['categories', 'get', '--each', '-', '--rate', '0', '--query', 'id'], '1\n98\n2\n');
    expect(r.code).toBe(1);
    expect(records(r.stdout).map((record) => [record.line, record.ok, record.data ?? record.error.message])).toEqual([
      [1, true, 1],
      [2, false, 'Not found.'],
      [3, true, 2],
    ]);
  });

  it('names a query that cannot be applied to an answer on its line, and the run succeeds', async () => {
    // abs() of a name is a type error found only when the query meets the answer.
    const r = await run(['categories', 'get', '--each', '-', '--rate', '0', '--query', 'abs(name)'], '1\n2\n');
    expect(r.code).toBe(0);
    const out = records(r.stdout);
    expect(out.map((record) => [record.line, record.ok, record.status])).toEqual([
      [1, true, 200],
      [2, true, 200],
    ]);
    for (const record of out) expect(record.queryError).toMatch(/^--query could not be applied to the result \(.+\)/);
    expect(r.stderr).toContain('2 succeeded, 0 failed');
  });
});
