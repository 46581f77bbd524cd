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
  // Each column's room, padding included: as wide as the view lets its values be, or ROOM.
  const roomOf = (shown: Column[]) => shown.map(([label]) => (view?.widest?.[label] ?? ROOM - 2) + 2);
  const cells = (record: unknown, shown = columns!) => shown.map(([, cell]) => cell(record && typeof record === 'object' ? (record as Record<string, unknown>) : { value: record }, fmt));
  const draw = (head: string[], rows: string[][]) => {
    const fit = (row: string[]) => row.map((cell, i) => table.breakLongWords(cell, colWidths![i]! - 2));
    const drawn = new Table({ head: fit(head), style, chars, colWidths, wordWrap: true, wrapOnWordBoundary: true });
    drawn.push(...rows.map(fit));
    return drawn.toString().split('\n');
  };
  return {
    page(records) {
      if (records.length === 0) return;
      columns ??= table.autoColumns([records[0]]);
      if (!colWidths && !paths && view?.optional) {
        // The first page decides which columns the view can spare, as a whole list's table does,
        // keeping the others room for the longer values of later pages.
        const heading = (shown: Column[]) => table.headingOf(shown.map(([label]) => label), color);
        columns = table.sparedColumns(columns, view.optional, (shown) => hasRoom(table.naturalWidths([heading(shown), ...records.map((record) => cells(record, shown))]), roomOf(shown), width));
      }
      const rows = records.map((record) => cells(record));
      if (!colWidths) {
        const head = table.headingOf(columns!.map(([label]) => label), color);
        colWidths = table.fitColumns([head, ...rows], width) ?? roomy(table.naturalWidths([head, ...rows]), roomOf(columns!), width);
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

/** How wide a column of a streamed table is at least, padding included, so that later pages' longer values rarely wrap. */
const ROOM = 18;

/** Whether every column can have its room within `width`. */
function hasRoom(widths: number[], room: number[], width: number | undefined): boolean {
  return widths.reduce((total, w, i) => total + Math.max(w, room[i]!), 0) <= (width ?? Infinity) - (widths.length + 1);
}

/** Later pages may hold longer values than the first: each column gets some room beyond it, while the table still fits. */
function roomy(widths: number[], room: number[], width: number | undefined): number[] {
  const budget = (width ?? Infinity) - (widths.length + 1);
  if (hasRoom(widths, room, width)) return widths.map((w, i) => Math.max(w, room[i]!));
  // As much of that room as there is, shared alike.
  const spare = Math.max(0, budget - widths.reduce((a, b) => a + b, 0));
  const growing = widths.filter((w, i) => w < room[i]!).length || 1;
  return widths.map((w, i) => (w < room[i]! ? Math.min(room[i]!, w + Math.floor(spare / growing)) : w));
}
