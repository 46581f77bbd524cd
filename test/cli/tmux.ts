// Drives the CLI in a real pseudo-terminal through tmux: type keys, read the screen.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { until, WAIT_MS } from '../helpers.js';
import { BIN } from './run.js';

export const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export class Terminal {
  private constructor(readonly name: string) {}

  /**
   * Each terminal has a tmux server of its own (-L): test files run in parallel, and one server
   * shared by all exits under a session that is starting when the last other one ends.
   */
  private static tmux(name: string, ...args: string[]): string {
    return execFileSync('tmux', ['-L', name, ...args], { encoding: 'utf8' });
  }

  private tmux(...args: string[]): string {
    return Terminal.tmux(this.name, ...args);
  }

  /** Starts `store-admin ARGS` in a fresh terminal (120×40 unless told); the shell prints EXIT:<code> when it ends. */
  static start(args: string[], env: Record<string, string>, { width = 120, height = 40 } = {}): Terminal {
    const name = `sa-${randomBytes(4).toString('hex')}`;
    const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    Terminal.tmux(name, 'new-session', '-d', '-s', name, '-x', String(width), '-y', String(height), ...envArgs, `${quoted}; echo EXIT:$?; sleep 60`);
    return new Terminal(name);
  }

  /** The screen's text; lines the terminal wrapped are joined back, so none is hidden by wrapping. */
  screen({ colors = false } = {}): string {
    return this.tmux('capture-pane', '-p', '-J', ...(colors ? ['-e'] : []), '-t', this.name);
  }

  /** Waits until the screen matches, returning it; fails with the screen after the timeout. */
  waitFor(pattern: RegExp, timeoutMs = WAIT_MS): Promise<string> {
    let text = '';
    return until(
      `the screen to show ${pattern}`,
      () => {
        text = this.screen();
        // A prompt library wraps long questions itself; a match may span its line breaks.
        return (pattern.test(text) || pattern.test(text.replace(/[ \t]*\n[ \t]*/g, ' '))) && text;
      },
      { timeoutMs, everyMs: 50, seen: () => `screen:\n${text}` },
    );
  }

  /** tmux key names (Enter, Down, Space, C-c) or literal text with `{ literal: true }`. */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', this.name, ...keys);
  }

  type(text: string): void {
    this.tmux('send-keys', '-t', this.name, '-l', text);
  }

  async exitCode(): Promise<number> {
    const screen = await this.waitFor(/EXIT:\d+/);
    return Number(/EXIT:(\d+)/.exec(screen)![1]);
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
