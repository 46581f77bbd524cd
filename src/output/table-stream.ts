// A list's table drawn a page at a time, as the pages arrive: the first page sets the columns and
// their widths (fitted to the terminal as any table is), and each later page adds its rows inside
// the same frame; longer cells wrap at words. The closing border comes at the end, so a run
// stopped between pages still shows a whole table.
import type { ColorLevel } from './color.js';
import type { Column, View, ViewName } from './views.js';

interface Writers {
  text(text: string): void;
  table(): { width: number | undefined; color: ColorLevel };
}

export async function tableStream(
  writers: Writers,
  viewName: ViewName | undefined,
  paths: readonly string[] | undefined,
): Promise<{ page(records: readonly unknown[]): void; end(): Promise<void> }> {
  const [{ default: Table }, { Chalk }, { createFmt }, { views }, { columnsView }, table] = await Promise.all([
    import('cli-table3'),
    import('chalk'),
    import('./format.js'),
    import('./views.js'),
    import('./columns.js'),
    import('./table.js'),
  ]);
  const { width, color } = writers.table();
  const fmt = createFmt(new Chalk({ level: color }));
  const { style, chars } = table.tableChrome(color);
  const view: View | undefined = viewName ? views[viewName] : undefined;
  let columns: Column[] | undefined = paths ? columnsView(paths).columns : view?.columns;
  let colWidths: number[] | undefined;
  let bottom: string | undefined;
  const cells = (record: unknown) => columns!.map(([, cell]) => cell(record && typeof record === 'object' ? (record as Record<string, unknown>) : { value: record }, fmt));
  const draw = (head: string[], rows: string[][]) => {
    const fit = (row: string[]) => row.map((cell, i) => table.breakLongWords(cell, colWidths![i]! - 2));
    const drawn = new Table({ head: fit(head), style, chars, colWidths, wordWrap: true, wrapOnWordBoundary: true });
    drawn.push(...rows.map(fit));
    return drawn.toString().split('\n');
  };
  return {
    page(records) {
      if (records.length === 0) return;
      const rows = records.map((record) => (columns ??= table.autoColumns([record]), cells(record)));
      if (!colWidths) {
        const head = table.headingOf(columns!.map(([label]) => label), color);
        colWidths = table.fitColumns([head, ...rows], width) ?? roomy(naturalWidths([head, ...rows]), width);
        const lines = draw(head, rows);
        bottom = lines.pop();
        writers.text(`${lines.join('\n')}\n`);
        return;
      }
      // The page's own frame goes: its rows continue the table above.
      writers.text(`${draw([], rows).slice(1, -1).join('\n')}\n`);
    },
    end: async () => writers.text(bottom === undefined ? `${fmt.dim('(none)')}\n` : `${bottom}\n`),
  };
}

/** Later pages may hold longer values than the first: each column gets some room beyond it, while the table still fits. */
function roomy(widths: number[], width: number | undefined): number[] {
  const ROOM = 18;
  const budget = (width ?? Infinity) - (widths.length + 1);
  const wanted = widths.map((w) => Math.max(w, ROOM));
  const total = wanted.reduce((a, b) => a + b, 0);
  if (total <= budget) return wanted;
  // As much of that room as there is, shared alike.
  const spare = Math.max(0, budget - widths.reduce((a, b) => a + b, 0));
  const growing = widths.filter((w) => w < ROOM).length || 1;
  return widths.map((w) => (w < ROOM ? Math.min(ROOM, w + Math.floor(spare / growing)) : w));
}

/** Each column as wide as its widest line, padding included (what cli-table3 would choose). */
function naturalWidths(rows: string[][]): number[] {
  const visible = (text: string) => Math.max(...text.split('\n').map((line) => [...line.replace(/\x1b\[[0-9;]*m/g, '')].length));
  return rows[0]!.map((_, i) => 2 + Math.max(1, ...rows.map((row) => visible(row[i] ?? ''))));
}
