// The source has no import cycles: each module can be understood, loaded and tested from the
// bottom up. Static and dynamic (`import('…')`) imports count; `import type` does not, since it
// leaves nothing at run time.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
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

/** Relative runtime imports of a module, as paths of other modules. */
export function importsOf(file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specifiers = [
    ...[...code.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
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
    expect(cycles(fake)).toEqual([[a, b].sort()]);
  });

  it('see every module of the tool', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get(join(SRC, 'cli.ts'))).toContain(join(SRC, 'context.ts'));
  });
});
