// A progress bar with rate and ETA on the status line, redrawn at most ten times a second; only on a terminal.
import type { OutputStream } from '../io.js';
import { statusLine } from '../output/status-line.js';

export interface Progress {
  tick(): void;
  done(): void;
}

export function progressBar(stream: OutputStream, total: number): Progress {
  if (!stream.isTTY) return { tick() {}, done() {} };
  const line = statusLine(stream);
  const started = Date.now();
  let finished = 0;
  let drawn = 0;
  const draw = () => {
    drawn = Date.now();
    const elapsed = Math.max(0.001, (drawn - started) / 1000);
    const rate = finished / elapsed;
    const width = 24;
    const filled = Math.round((finished / total) * width);
    const eta = rate > 0 ? duration((total - finished) / rate) : '?';
    line.draw(`[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${finished}/${total} ${Math.floor((finished / total) * 100)}%  ${rate.toFixed(1)}/s  ETA ${eta}`);
  };
  draw();
  return {
    tick() {
      finished++;
      if (Date.now() - drawn > 100 || finished === total) draw();
    },
    done() {
      line.clear();
    },
  };
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
