// The retry loop: each attempt waits its turn, failures and answers are judged by the policy in
// ./retry.ts, and a change whose answer was lost is reported as such, never guessed at.
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, NetworkError, NotStartedError, UnknownOutcomeError, statusLine } from './errors.js';
import { interrupted } from './attempt.js';
import { backoffMs, retryableFailure, retryableStatus, retryAfterMs, type RetryInfo, type RetryOptions } from './retry.js';
import type { PreparedRequest } from './request-builder.js';
import type { Response } from './types.js';
import { DEFAULTS } from '../defaults.js';

export interface RetryLoop extends RetryOptions {
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

/** Runs `send` until it succeeds or the policy above says to stop, pausing between attempts. */
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
  for (let attempt = 0; ; attempt++) {
    const more = attempt < retries;
    let response;
    try {
      const turn = loop.beforeAttempt?.();
      if (turn) await turn;
      if (attempt === 0) {
        if (signals.startSignal?.aborted) throw new NotStartedError('Stopped before it was sent');
        signals.onSend?.();
      }
      loop.onRequest?.(prepared);
      response = await send();
    } catch (error) {
      if (more && retryableFailure(method, error)) {
        answerLost ||= (error as NetworkError).sent;
        await pause({ attempt: attempt + 1, of: retries, delayMs: backoffMs(attempt, baseDelayMs), reason: (error as Error).message });
        continue;
      }
      throw outcome(method, error);
    }
    loop.onResponse?.(response);
    if (more && retryableStatus(method, response.status)) {
      const asked = retryAfterMs(response.headers['retry-after']);
      if (asked !== undefined && asked > retryAfterCapMs) {
        // A wait past any date (Retry-After: 99999999999999999999) has no time to name.
        const until = Date.now() + asked;
        const at = until <= MAX_DATE_MS ? `; retry after ${new Date(until).toISOString().replace(/\.\d{3}Z$/, 'Z')}` : '';
        const seconds = asked / 1000 < 1e15 ? `${Math.ceil(asked / 1000)} s` : 'longer than a date can say';
        throw new ApiError(response.status, response.body, `${statusLine(response.status)}: the store asks to wait ${seconds}${at}`, response.headers);
      }
      await pause({ attempt: attempt + 1, of: retries, delayMs: asked ?? backoffMs(attempt, baseDelayMs), reason: statusLine(response.status) });
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
