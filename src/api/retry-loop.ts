// The retry loop: each attempt waits its turn, failures and answers are judged by the policy in
// ./retry.ts, and a change whose answer was lost is reported as such, never guessed at.
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, NetworkError, NotStartedError, UnknownOutcomeError, describeErrorBody, statusLine } from './errors.js';
import { interrupted } from './attempt.js';
import { backoffMs, retryableFailure, retryableStatus, retryAfterMs, type RetryInfo, type RetryOptions } from './retry.js';
import type { PreparedRequest } from './request-builder.js';
import type { Response } from './types.js';
import { DEFAULTS } from '../defaults.js';

export interface RetryLoop extends RetryOptions {
  /** The time limit, within which the waits on 429s must fit (default: DEFAULTS.timeoutSeconds). */
  timeoutMs?: number;
  /** Awaited before every attempt, retries included: where a shared rate limit waits. */
  beforeAttempt?: () => Promise<void> | void;
  onRequest?: (request: PreparedRequest) => void;
  onResponse?: (response: Response) => void;
}

export interface AttemptSignals {
  /** Aborts the call, even an attempt already sent. */
  signal?: AbortSignal;
  /** Checked once the first attempt's turn comes: if aborted, nothing is sent. */
  startSignal?: AbortSignal;
  /** Called just before the first attempt leaves. */
  onSend?: () => void;
}

/** The latest time a Date can hold. */
const MAX_DATE_MS = 8.64e15;

/**
 * Runs `send` until it succeeds or the policy says to stop, pausing between attempts. A 429 is no
 * failure to count against `retries`: the store did not take the request, so it is sent again as
 * soon as the store asks (Retry-After), for as long as the waits fit in the time limit.
 */
export async function withRetries(
  prepared: PreparedRequest,
  send: () => Promise<Response>,
  loop: RetryLoop,
  signals: AttemptSignals,
): Promise<Response> {
  const { method } = prepared;
  const retries = loop.retries ?? DEFAULTS.retries;
  const retryAfterCapMs = loop.retryAfterCapMs ?? DEFAULTS.retryAfterCapMs;
  const baseDelayMs = loop.baseDelayMs ?? DEFAULTS.retryBaseDelayMs;
  const throttleBudgetMs = loop.timeoutMs ?? DEFAULTS.timeoutSeconds * 1000;
  const pause = async (info: RetryInfo) => {
    loop.onRetry?.(info);
    try {
      await sleep(info.delayMs, undefined, { signal: signals.signal });
    } catch {
      throw interrupted('GET');
    }
  };
  // Set when an attempt may have reached the store before its answer was lost.
  let answerLost = false;
  let sent = false;
  // Retries made after failures; the waits on 429s are counted apart.
  let attempt = 0;
  const throttled = { count: 0, waitedMs: 0 };
  for (;;) {
    const more = attempt < retries;
    let response;
    try {
      const turn = loop.beforeAttempt?.();
      if (turn) await turn;
      if (!sent) {
        if (signals.startSignal?.aborted) throw new NotStartedError('Stopped before it was sent');
        signals.onSend?.();
        sent = true;
      }
      loop.onRequest?.(prepared);
      response = await send();
    } catch (error) {
      if (more && retryableFailure(method, error)) {
        answerLost ||= (error as NetworkError).sent;
        const delayMs = backoffMs(attempt, baseDelayMs);
        await pause({ attempt: ++attempt, of: retries, delayMs, reason: (error as Error).message });
        continue;
      }
      throw outcome(method, error);
    }
    loop.onResponse?.(response);
    if (response.status === 429) {
      const delayMs = throttleWait(response, retryAfterCapMs, throttled, throttleBudgetMs, baseDelayMs);
      throttled.count++;
      throttled.waitedMs += delayMs;
      await pause({ attempt, of: retries, delayMs, reason: statusLine(429), throttled: true });
      continue;
    }
    if (more && retryableStatus(method, response.status)) {
      const delayMs = askedWait(response, retryAfterCapMs) ?? backoffMs(attempt, baseDelayMs);
      await pause({ attempt: ++attempt, of: retries, delayMs, reason: statusLine(response.status) });
      continue;
    }
    if (method === 'DELETE' && answerLost && response.status === 404) {
      throw new UnknownOutcomeError(
        'The answer to the first attempt was lost, and the retry found nothing to delete: the first attempt most likely deleted it',
        { hint: 'Read it back to be sure' },
      );
    }
    return response;
  }
}

/** The wait Retry-After asks for, if any; one past the longest wait allowed ends the call. */
function askedWait(response: Response, capMs: number): number | undefined {
  const asked = retryAfterMs(response.headers['retry-after']);
  if (asked === undefined || asked <= capMs) return asked;
  // A wait past any date (Retry-After: 99999999999999999999) has no time to name.
  const until = Date.now() + asked;
  const at = until <= MAX_DATE_MS ? `; retry after ${new Date(until).toISOString().replace(/\.\d{3}Z$/, 'Z')}` : '';
  const wait = asked / 1000 < 1e15 ? `${Math.ceil(asked / 1000)} s` : 'longer than a date can say';
  throw new ApiError(response.status, response.body, `${statusLine(response.status)}: the store asks to wait ${wait}${at}`, response.headers);
}

/**
 * How long to wait before sending again after a 429: as long as Retry-After asks (without one, the
 * backoff), unless that passes the longest wait allowed or the time limit, which ends the call.
 */
function throttleWait(response: Response, capMs: number, throttled: { count: number; waitedMs: number }, budgetMs: number, baseDelayMs: number): number {
  const delayMs = askedWait(response, capMs) ?? backoffMs(throttled.count, baseDelayMs);
  if (throttled.waitedMs + delayMs > budgetMs) {
    const error = new ApiError(429, response.body, describeErrorBody(429, response.body), response.headers);
    const after = throttled.waitedMs > 0 ? ` more, after ${seconds(throttled.waitedMs)} s of waits,` : '';
    error.hint = `The store asks to wait ${seconds(delayMs)} s${after} past the time limit (--timeout ${seconds(budgetMs)} s)`;
    throw error;
  }
  return delayMs;
}

const seconds = (ms: number) => Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1));

/** A POST whose answer was lost may have been applied: say so rather than guess. */
function outcome(method: string, error: unknown): unknown {
  if (method !== 'POST' || !(error instanceof NetworkError) || !error.sent) return error;
  if (error.kind === 'body' && error.status !== undefined && error.status >= 200 && error.status < 300) {
    return new UnknownOutcomeError(`The store accepted the change (${error.status}) but its answer could not be read`, {
      cause: error,
      hint: 'The change was applied; read it back rather than sending it again',
    });
  }
  if (error.kind === 'reset' || error.kind === 'timeout' || error.kind === 'body' || error.kind === 'other') {
    return new UnknownOutcomeError(`${error.message}; the change may or may not have been applied`, {
      cause: error,
      hint: 'Check the store before sending it again: it was not retried, so it cannot have been applied twice',
    });
  }
  return error;
}
