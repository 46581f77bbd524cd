// Every command, swept in process through main(): its help (which fits 80 columns), and a --dry-run
// with its arguments and required fields filled in, which must build the very request the table
// describes. A command that cannot be run, or whose help overflows, fails here by name.
import type { Command } from 'commander';
import type * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { loadAllOperations, type Operation } from '../../src/api/operations.js';
import { commandTree } from '../../src/cli.js';
import { metaOf } from '../../src/commands/meta.js';
import { processIO } from '../../src/output/stream.js';
import { sample } from '../samples.js';
import { runInProcess } from './in-process.js';

const operations = await loadAllOperations();
const program = await commandTree(processIO());

const hidden = (command: Command) => (command as Command & { _hidden?: boolean })._hidden === true;
function visible(command: Command, path: string[] = []): string[][] {
  return command.commands.filter((sub) => !hidden(sub) && !(path.length === 0 && sub.name() === 'help')).flatMap((sub) => [[...path, sub.name()], ...visible(sub, [...path, sub.name()])]);
}

/** A value for a path parameter, as a person would type it. */
function argument(param: string, kind: string): string {
  if (param === 'number') return '10001';
  if (param === 'currency') return 'USD';
  return kind === 'id' ? '7' : 'abc-1';
}

/** The body to give with --data: the schema's required fields; a partial update gets one field to change. */
async function dataFor(op: Operation): Promise<string[]> {
  const { body } = await op.schemas();
  if (!body || (body.safeParse(undefined).success && op.method === 'POST')) return [];
  let value = sample(body) as Record<string, unknown> | undefined;
  const def = (body.def as unknown as { type: string; innerType?: z.ZodMiniType }).type === 'optional' ? (body.def as unknown as { innerType: z.ZodMiniType }).innerType.def : body.def;
  const shape = (def as unknown as { shape?: Record<string, z.ZodMiniType> }).shape;
  if (shape && (!value || Object.keys(value).length === 0)) {
    const [key, field] = Object.entries(shape)[0] ?? [];
    value = key ? { [key]: sample((field!.def as unknown as { innerType?: z.ZodMiniType }).innerType ?? field!) ?? 'x' } : {};
  }
  // A free-form object (an app's settings) gets a key of its own.
  if (!value || Object.keys(value).length === 0) value = op.method === 'GET' || op.method === 'DELETE' ? undefined : { theme: 'dark' };
  return value === undefined ? [] : ['--data', JSON.stringify(value)];
}

const env = { STORE_ADMIN_BASE_URL: 'https://shop.example.com', STORE_ADMIN_TOKEN: 'sweep-token-0123456789' };

describe('every command', () => {
  it.each(visible(program).map((words) => [words.join(' ')]))('%s --help fits 80 columns', async (words) => {
    const r = await runInProcess([...words.split(' '), '--help'], {});
    expect(r.code, r.stderr).toBe(0);
    const wide = r.stdout.split('\n').filter((line) => line.length > 80);
    expect(wide, words).toEqual([]);
  });

  // A job that is an operation's command (orders refund) plans with --dry-run, reading the store: test/jobs holds it.
  const isJob = (op: Operation) => metaOf(op.command.split(' ').reduce((command, word) => command.commands.find((c) => c.name() === word)!, program as Command))?.job === true;
  it.each(operations.filter((op) => !isJob(op)).map((op) => [op.command, op] as const))('%s --dry-run builds its request', async (_command, op) => {
    const args = Object.entries(op.params).map(([param, kind]) => argument(param, kind));
    const data = await dataFor(op);
    const r = await runInProcess([...op.command.split(' '), ...args, ...data, '--dry-run', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const request = JSON.parse(r.stdout) as { method: string; url: string; headers: Record<string, string> };
    expect(request.method).toBe(op.method);
    const path = op.path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(argument(param, op.params[param]!)));
    expect(new URL(request.url).pathname).toBe(`/api/admin${path}`);
    expect(request.headers['x-store-api-version']).toBe(op.version);
    expect(JSON.stringify(request)).not.toContain(env.STORE_ADMIN_TOKEN);
  });
});
