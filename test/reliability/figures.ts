// Figures measured by the reliability tests. With STORE_ADMIN_WRITE_DOCS=1 each test file
// rewrites its own table in docs/reliability.md, so the document shows what the tests last proved.
import { readFileSync, writeFileSync } from 'node:fs';

export interface Figure {
  scenario: string;
  setup: string;
  result: string;
}

const DOC = new URL('../../docs/reliability.md', import.meta.url);

export function writeFigures(section: string, figures: Figure[]): void {
  if (process.env.STORE_ADMIN_WRITE_DOCS !== '1') return;
  const start = `<!-- figures:${section} -->`;
  const end = `<!-- /figures:${section} -->`;
  const doc = readFileSync(DOC, 'utf8');
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < 0) throw new Error(`docs/reliability.md lacks the markers for ${section}`);
  const table = ['| Scenario | Setup | Result |', '|---|---|---|', ...figures.map((f) => `| ${f.scenario} | ${f.setup} | ${f.result} |`)];
  writeFileSync(DOC, `${doc.slice(0, from + start.length)}\n${table.join('\n')}\n${doc.slice(to)}`);
}
