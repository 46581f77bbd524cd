// Misbehaviour on purpose, for testing clients: latency, a rate limit, error answers, resets
// before or after the handler ran, truncated bodies, proxy HTML pages and hangs. Every draw comes
// from a seeded generator, so a run can be repeated exactly.
import { UsageError } from '../api/errors.js';

export interface FaultSpec {
  /** Added delay per request, in ms: fixed or a [min, max] range. */
  latency?: [number, number];
  /**
   * Requests per second per token; more are answered 429 with Retry-After. The sandbox enforces
   * the platform's 4 unless told otherwise; 0 lifts the limit.
   */
  rate?: number;
  /** Share answered with one of `codes` instead of being handled. */
  error?: { share: number; codes: number[] };
  /** Share whose connection is dropped before the handler runs (nothing applied). */
  resetBefore?: number;
  /** Share whose connection is dropped after the handler ran (the change is applied). */
  resetAfter?: number;
  /** Share whose body is cut off halfway, after the handler ran. */
  truncate?: number;
  /** Share answered 502 with an HTML page, as a proxy would. */
  html?: number;
  /** Share never answered at all. */
  hang?: number;
  /** The first N signed export links are handed out already expired, as if fetched too late. */
  expiredLinks?: number;
  seed: number;
}

export type FaultKind = 'rate-limit' | 'error' | 'reset-before' | 'reset-after' | 'truncate' | 'html' | 'hang' | 'expired-link';

export interface Decision {
  delayMs: number;
  /** Seconds to put in Retry-After when the request is over the rate limit. */
  retryAfter?: number;
  before?: { kind: 'reset-before' | 'hang' | 'html' } | { kind: 'error'; status: number };
  after?: 'reset-after' | 'truncate';
}

const SHARES = ['reset-before', 'reset-after', 'truncate', 'html', 'hang'] as const;

/** `latency=50,rate=4,error=0.3:503,reset-before=0.1,reset-after=0.1,truncate=0.05,html=0.05,hang=0.01,expired-links=1,seed=7` */
export function parseFaults(spec: string, seed?: number): FaultSpec {
  const result: FaultSpec = { seed: seed ?? 1 };
  const share = (name: string, value: string) => {
    const n = Number(value);
    if (!/^\d*\.?\d+$/.test(value) || n < 0 || n > 1) throw new UsageError(`--faults: ${name} takes a share from 0 to 1 (got "${value}")`);
    return n;
  };
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name = '', value = ''] = part.split('=', 2);
    if (name === 'latency') {
      const match = /^(\d+)(?:-(\d+))?$/.exec(value);
      if (!match) throw new UsageError(`--faults: latency takes MS or MIN-MAX (got "${value}")`);
      result.latency = [Number(match[1]), Number(match[2] ?? match[1])];
    } else if (name === 'rate') {
      if (!/^\d{1,6}$/.test(value)) throw new UsageError(`--faults: rate takes requests per second, 0 for no limit (got "${value}")`);
      result.rate = Number(value);
    } else if (name === 'error') {
      const [shareText = '', codesText] = value.split(':');
      const codes = codesText ? codesText.split('/').map(Number) : [500, 502, 503];
      if (codes.some((c) => !Number.isInteger(c) || c < 400 || c > 599)) throw new UsageError(`--faults: error codes are 400 to 599 (got "${codesText}")`);
      result.error = { share: share(name, shareText), codes };
    } else if (name === 'expired-links') {
      if (!/^\d{1,6}$/.test(value)) throw new UsageError(`--faults: expired-links takes a count of links (got "${value}")`);
      result.expiredLinks = Number(value);
    } else if (name === 'seed') {
      if (!/^\d+$/.test(value)) throw new UsageError(`--faults: seed takes a whole number (got "${value}")`);
      result.seed = Number(value);
    } else if ((SHARES as readonly string[]).includes(name)) {
      const key = name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) as 'resetBefore' | 'resetAfter' | 'truncate' | 'html' | 'hang';
      result[key] = share(name, value);
    } else {
      throw new UsageError(`--faults: unknown fault "${name}" (known: latency, rate, error, ${SHARES.join(', ')}, expired-links, seed)`);
    }
  }
  if (seed !== undefined) result.seed = seed;
  return result;
}

/** mulberry32: small, fast and good enough to spread faults evenly. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function faultInjector(spec: FaultSpec) {
  const random = generator(spec.seed);
  const windows = new Map<string, number[]>();
  let lastSweep = 0;
  const injected: Partial<Record<FaultKind, number>> = {};
  const count = (kind: FaultKind) => (injected[kind] = (injected[kind] ?? 0) + 1);

  /** Forgets tokens with no request in the last second, at most once a second, so the map stays small. */
  function sweep(now: number) {
    if (now - lastSweep < 1000) return;
    lastSweep = now;
    for (const [token, times] of windows) if (times.length === 0 || now - times.at(-1)! >= 1000) windows.delete(token);
  }

  function decide(token: string, now = Date.now()): Decision {
    const decision: Decision = { delayMs: 0 };
    if (spec.latency) {
      const [min, max] = spec.latency;
      decision.delayMs = Math.round(min + random() * (max - min));
    }
    if (spec.rate) {
      sweep(now);
      const recent = (windows.get(token) ?? []).filter((t) => now - t < 1000);
      windows.set(token, recent);
      if (recent.length >= spec.rate) {
        count('rate-limit');
        decision.retryAfter = Math.max(1, Math.ceil((recent[0]! + 1000 - now) / 1000));
        return decision;
      }
      recent.push(now);
    }
    // One draw picks at most one fault before the handler, another at most one after it.
    let draw = random();
    const pick = (share = 0) => (draw -= share) < 0;
    if (pick(spec.resetBefore)) decision.before = { kind: 'reset-before' };
    else if (pick(spec.hang)) decision.before = { kind: 'hang' };
    else if (pick(spec.html)) decision.before = { kind: 'html' };
    else if (pick(spec.error?.share)) {
      const codes = spec.error!.codes;
      decision.before = { kind: 'error', status: codes[Math.floor(random() * codes.length)]! };
    }
    if (decision.before) count(decision.before.kind);
    else {
      draw = random();
      if (pick(spec.resetAfter)) decision.after = 'reset-after';
      else if (pick(spec.truncate)) decision.after = 'truncate';
      if (decision.after) count(decision.after);
    }
    return decision;
  }

  /** How many tokens the rate limit is keeping track of. */
  const trackedTokens = () => windows.size;

  return { decide, injected, trackedTokens };
}

export type FaultInjector = ReturnType<typeof faultInjector>;
