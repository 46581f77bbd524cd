// The one line at the bottom of a terminal's stderr that redraws in place: a spinner, a progress
// bar, a download's byte count. Lines meant to stay (notes, bulk results) are written above it
// without tearing it. Off a terminal nothing is drawn, so logs never fill with carriage returns.
import type { OutputStream } from '../io.js';

export interface StatusLine {
  /** Shows `text` in place of what was drawn before, cut to the terminal's width. */
  draw(text: string): void;
  /** Takes the line away (drawing again brings it back). */
  clear(): void;
  /** Runs `write` (which prints whole lines, on any stream) with the line lifted out of the way. */
  above(write: () => void): void;
}

const CLEAR = '\r\x1b[2K';
const lines = new WeakMap<OutputStream, StatusLine>();

/** The status line of `stream`: one per stream, shared by everyone who draws on it. */
export function statusLine(stream: OutputStream): StatusLine {
  let line = lines.get(stream);
  if (!line) lines.set(stream, (line = stream.isTTY ? terminalLine(stream) : NO_LINE));
  return line;
}

const NO_LINE: StatusLine = { draw() {}, clear() {}, above: (write) => write() };

function terminalLine(stream: OutputStream): StatusLine {
  let shown = '';
  return {
    draw(text) {
      // A line longer than the terminal wraps, and \r then redraws only its last part.
      shown = fit(text, (stream.columns ?? 80) - 1);
      stream.write(`${CLEAR}${shown}`);
    },
    clear() {
      if (shown) stream.write(CLEAR);
      shown = '';
    },
    above(write) {
      const kept = shown;
      if (kept) stream.write(CLEAR);
      write();
      if (kept) stream.write(kept);
    },
  };
}

function fit(text: string, width: number): string {
  const chars = Array.from(text);
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}
