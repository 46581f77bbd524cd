// Interrupts as two AbortSignals, made once per run: the first Ctrl-C, SIGTERM or a failed write
// to stdout (its reader gone, a full disk) stops new work; a second Ctrl-C or SIGTERM abandons work
// in flight. Commands and bulk runs listen
// to these signals, never to `process`. Listeners are installed only when a command first asks for a
// signal, so a command that never looks keeps Node's default Ctrl-C (exit at once).
import type { IO } from './io.js';

export interface Interrupts {
  /** Aborted by the first Ctrl-C, by SIGTERM, or when a write to stdout fails: start nothing new. */
  readonly signal: AbortSignal;
  /** Aborted by a second Ctrl-C or SIGTERM: abandon requests in flight. */
  readonly forceSignal: AbortSignal;
  /** What stopped the run first, if anything did: the exit code follows it (130, 143, 141; 1 for stdout on a full disk). */
  readonly stoppedBy?: StopReason;
  dispose(): void;
}

/** A signal; stdout's reader gone (EPIPE); or another failed write to stdout (a full disk). */
export type StopReason = NodeJS.Signals | 'EPIPE' | 'stdout';

/** A third interrupt means the run is stuck: leave at once, as Node would have without listeners. */
const LAST_RESORT = 3;

export function listenForInterrupts(io: IO): Interrupts {
  // Made when first asked for, as the listeners are: --help never needs them (~2 ms to make).
  let stop: AbortController;
  let force: AbortController;
  let armed = false;
  let count = 0;
  const onSignal = (name: NodeJS.Signals) => {
    count++;
    if (count >= LAST_RESORT) process.exit(name === 'SIGINT' ? 130 : 143);
    (count === 1 ? stop : force).abort(name);
  };
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (!stop.signal.aborted) stop.abort(error.code === 'EPIPE' ? 'EPIPE' : 'stdout');
  };
  const stdout = io.stdout as Partial<NodeJS.EventEmitter>;
  const arm = () => {
    if (armed) return;
    armed = true;
    stop = new AbortController();
    force = new AbortController();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    stdout.on?.('error', onStdoutError);
  };
  return {
    get signal() {
      arm();
      return stop.signal;
    },
    get forceSignal() {
      arm();
      return force.signal;
    },
    get stoppedBy() {
      return armed && stop.signal.aborted ? (stop.signal.reason as StopReason) : undefined;
    },
    dispose() {
      if (!armed) return;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stdout.off?.('error', onStdoutError);
    },
  };
}
