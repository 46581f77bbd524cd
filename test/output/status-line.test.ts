// The status line: drawn in place on a terminal, cut to its width, lifted for lines that stay,
// and never drawn into a pipe or a log.
import { describe, expect, it } from 'vitest';
import { statusLine } from '../../src/output/status-line.js';

function stream(isTTY: boolean, columns = 20) {
  const chunks: string[] = [];
  return { chunks, isTTY, columns, write: (chunk: string) => (chunks.push(chunk), true) };
}

describe('statusLine', () => {
  it('redraws in place, fits the width, and keeps itself below lines written above it', () => {
    const out = stream(true);
    const line = statusLine(out);
    expect(statusLine(out)).toBe(line);
    line.draw('[████░░░░] 4/8 50%  2.0/s  ETA 2s');
    line.above(() => out.write('note\n'));
    line.clear();
    line.clear();
    expect(out.chunks).toEqual([
      '\r\x1b[2K[████░░░░] 4/8 50%…',
      '\r\x1b[2K',
      'note\n',
      '[████░░░░] 4/8 50%…',
      '\r\x1b[2K',
    ]);
  });

  it('writes nothing but the lines that stay when the stream is not a terminal', () => {
    const out = stream(false);
    const line = statusLine(out);
    line.draw('progress');
    line.above(() => out.write('note\n'));
    line.clear();
    expect(out.chunks).toEqual(['note\n']);
  });
});
