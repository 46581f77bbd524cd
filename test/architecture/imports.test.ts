// The source has no import cycles: each module can be understood, loaded and tested from the
// bottom up. Static, dynamic (`import('…')`) and type-only imports all count: a type is knowledge,
// and a circle of knowledge is a circle of design even when nothing of it is left at run time.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative imports of a module (types included), as paths of other modules. */
export function importsOf(file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specifiers = [
    ...[...code.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
    // `import('…')` in code and in type positions (`import('./connect.js').Grant`) alike.
    ...[...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  ];
  return specifiers.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

/** Every cycle's modules, found as strongly connected components (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    order.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) !== order.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return found;
}

/**
 * The floors of src/, top to bottom, as docs/architecture.md draws them. A module imports its own
 * room and the floors below it, never a floor above nor another room of its floor: that is what
 * keeps the run context flowing down from main() without climbing back. A new room is placed here
 * on purpose (the check refuses a room it does not know).
 */
export const FLOORS: readonly (readonly string[])[] = [
  ['cli.ts', 'index.ts', 'docs'], // the entry points: the CLI's main(), the library, the generated reference
  ['commands'], // declares each command's flags, arguments and help, and hands over
  ['webhooks', 'oauth', 'exports', 'jobs'], // whole jobs beside the run layer: apply, listen, replay; a partner app's login; an export's wait and download; bulk jobs planned line by line
  ['run'], // one operation run: input, confirmation, dry-run, the call, --each, journals and history
  ['fields', 'journal'], // a body field declared once; the history and run journals on disk
  ['context.ts'], // the one context made in main()
  ['prompt.ts', 'interrupts.ts', 'connect.ts'], // what the context holds: prompts, signals, the connection
  ['sandbox'], // the local store: routes from the table, handlers, state, events, deliverer
  ['config'], // profiles, tokens, the keychain
  ['output'], // the one output: render, tables, views, streams
  ['lock.ts', 'atomic-write.ts', 'options.ts'],
  ['api'], // the operation table, schemas and the client
  ['io.ts', 'printable.ts', 'defaults.ts', 'usage-errors.ts', 'clock.ts', 'capped-body.ts', 'polling.ts'],
];

/** A module's room: its folder under src/, or the file itself at the top. */
const roomOf = (file: string) => relative(SRC, file).split(sep)[0]!;

describe('imports', () => {
  const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));

  it('form no cycle in src/', () => {
    const named = cycles(graph).map((component) => component.map((file) => relative(SRC, file)).join(' ⇄ '));
    expect(named).toEqual([]);
  });

  it('are read by this check: it finds a cycle where there is one', () => {
    const a = join(SRC, 'a.ts');
    const b = join(SRC, 'b.ts');
    const c = join(SRC, 'c.ts');
    const fake = new Map([
      [a, importsOf(a, "import { x } from './b.js';\nimport type { T } from './c.js';")],
      [b, importsOf(b, "export async function f() { return import('./a.js'); }")],
      [c, importsOf(c, "import { a } from './a.js';")],
    ]);
    expect(cycles(fake)).toEqual([[a, b, c].sort()]);
  });

  it('point down the floors: no room imports one above it or beside it', () => {
    const floorOf = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room, floor] as const)));
    const unplaced = [...new Set([...graph.keys()].map(roomOf))].filter((room) => !floorOf.has(room) && room !== 'types');
    expect(unplaced, 'rooms missing from FLOORS').toEqual([]);
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        const [from, to] = [roomOf(file), roomOf(target)];
        if (from !== to && floorOf.get(to)! <= floorOf.get(from)!) upward.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('hold the lowest rooms apart: the client knows nothing of commands, runs, the sandbox or output', () => {
    const api = [...graph].filter(([file]) => roomOf(file) === 'api');
    const reached = new Set(api.flatMap(([, imports]) => imports.map(roomOf)));
    for (const room of ['commands', 'run', 'fields', 'sandbox', 'output', 'config', 'context.ts']) expect(reached).not.toContain(room);
  });

  it('see every module of the tool', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get(join(SRC, 'cli.ts'))).toContain(join(SRC, 'context.ts'));
  });
});
