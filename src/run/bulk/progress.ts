// A progress bar with rate and ETA on the status line, redrawn at most ten times a second; only on
// a terminal (off one, the status line draws nothing).
import type { StatusLine } from '../../output/status-line.js';

export interface Progress {
  tick(): void;
  /** Says on the bar that the run waits `ms` for the store (a 429), until the next line is done. */
  pause(ms: number): void;
  done(): void;
}

export function progressBar(line: StatusLine, total: number, limit?: number): Progress {
  const started = Date.now();
  let finished = 0;
  let drawn = 0;
  let note = '';
  const draw = () => {
    drawn = Date.now();
    const elapsed = Math.max(0.001, (drawn - started) / 1000);
    const rate = cappedRate(finished, elapsed, limit);
    const width = 24;
    const filled = Math.round((finished / total) * width);
    const eta = rate > 0 ? duration((total - finished) / rate) : '?';
    line.draw(`[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${finished}/${total} ${Math.floor((finished / total) * 100)}%  ${rate.toFixed(1)}/s  ETA ${eta}${note}`);
  };
  draw();
  return {
    tick() {
      finished++;
      const noted = note !== '';
      note = '';
      if (noted || Date.now() - drawn > 100 || finished === total) draw();
    },
    pause(ms) {
      note = `  · 429: waiting ${(ms / 1000).toFixed(1)} s as the store asks`;
      draw();
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

/**
 * Requests per second as shown: `count` over `seconds`, never above a `limit` (0 or none: no
 * limit). The limiter spaces starts 1/limit apart, so n starts span n - 1 gaps, and a short run
 * measured start to end reads above the limit it kept (5 lines at 4/s: 5 in 1.0 s).
 */
export function cappedRate(count: number, seconds: number, limit?: number): number {
  const measured = count / Math.max(seconds, 0.001);
  return limit ? Math.min(measured, limit) : measured;
}

/** `3.9/s`, as the summary shows the rate. */
export function shownRate(count: number, seconds: number, limit?: number): string {
  return `${cappedRate(count, seconds, limit).toFixed(1)}/s`;
}
