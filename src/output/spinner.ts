// A small spinner on the status line while a request is in flight; only on a terminal.
import type { OutputStream } from '../io.js';
import { statusLine } from './status-line.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** `text` may be a function, read on every frame (for an elapsed time). */
export function startSpinner(stream: OutputStream, text: string | (() => string)): () => void {
  if (!stream.isTTY) return () => {};
  const line = statusLine(stream);
  let frame = 0;
  const draw = () => line.draw(`${FRAMES[frame++ % FRAMES.length]} ${typeof text === 'string' ? text : text()}`);
  const timer = setInterval(draw, 80);
  timer.unref();
  draw();
  return () => {
    clearInterval(timer);
    line.clear();
  };
}
