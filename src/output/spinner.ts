// A small spinner on stderr while a request is in flight; only on a terminal.
import type { OutputStream } from '../io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** `text` may be a function, read on every frame (for an elapsed time). */
export function startSpinner(stream: OutputStream, text: string | (() => string)): () => void {
  if (!stream.isTTY) return () => {};
  let frame = 0;
  const draw = () => stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${typeof text === 'string' ? text : text()}`);
  const timer = setInterval(draw, 80);
  timer.unref();
  draw();
  return () => {
    clearInterval(timer);
    stream.write('\r\x1b[2K');
  };
}
