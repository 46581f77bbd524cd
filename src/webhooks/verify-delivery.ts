// `webhooks verify`: checks a saved delivery against the webhook's secret. The input is the body
// alone, a saved request (headers, a blank line, the body) whose X-Store-Signature header stands
// in for --signature, or a record that `webhooks listen --json` printed (its headers and body).
import { readFile } from 'node:fs/promises';
import { StoreAdminError, UsageError } from '../api/errors.js';
import { BodyTooLargeError, readCappedBody } from '../capped-body.js';
import { MAX_INPUT_BYTES } from '../fields/values.js';
import type { IO } from '../io.js';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER, type WebhookSignatureCheck } from '../api/webhook-signature.js';

export class SignatureMismatchError extends StoreAdminError {
  override name = 'SignatureMismatchError';
}

export interface SavedDelivery {
  body: Buffer;
  /** From the saved request's headers, when there are any. */
  signature?: string;
}

/** Splits a saved request into headers and body; a `listen --json` record into its own; anything else is all body. */
export function parseSavedDelivery(bytes: Buffer): SavedDelivery {
  const record = listenRecord(bytes);
  if (record) return record;
  const text = bytes.toString('latin1');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const looksLikeHeaders = /^(POST|PUT) \S+ HTTP\/\d(\.\d)?$/i.test(firstLine) || /^[A-Za-z0-9-]+: /.test(firstLine);
  const blank = /\r?\n\r?\n/.exec(text);
  if (!looksLikeHeaders || !blank) return { body: bytes };
  const headers = text.slice(0, blank.index).split(/\r?\n/);
  const signature = headers
    .map((line) => /^([A-Za-z0-9-]+):\s*(.*?)\s*$/.exec(line))
    .find((m) => m?.[1]!.toLowerCase() === WEBHOOK_SIGNATURE_HEADER)?.[2];
  return { body: bytes.subarray(blank.index + blank[0].length), ...(signature ? { signature } : {}) };
}

/** A record of `webhooks listen --json`: {headers, body (the text received), …}; undefined for anything else. */
function listenRecord(bytes: Buffer): SavedDelivery | undefined {
  const text = bytes.toString('utf8');
  const record = asRecord(text);
  if (record) {
    const signature = record.headers[WEBHOOK_SIGNATURE_HEADER];
    // Sent twice (a list), it is no single signature to check.
    return { body: Buffer.from(record.body, 'utf8'), ...(typeof signature === 'string' ? { signature } : {}) };
  }
  const lines = text.split('\n').filter((line) => line.trim());
  if (lines.length > 1 && lines.every((line) => asRecord(line))) {
    throw new UsageError(`The input holds ${lines.length} deliveries recorded by webhooks listen: verify one at a time`, {
      hint: 'Pick one by its line, e.g. sed -n 2p deliveries.jsonl | store-admin webhooks verify --secret-file SECRET',
    });
  }
  return undefined;
}

function asRecord(text: string): { headers: Record<string, unknown>; body: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = parsed as { headers?: unknown; body?: unknown } | null;
  const fits = !!record && typeof record === 'object' && typeof record.body === 'string' && !!record.headers && typeof record.headers === 'object';
  return fits ? (record as { headers: Record<string, unknown>; body: string }) : undefined;
}

export async function readDelivery(source: string | undefined, io: IO): Promise<SavedDelivery> {
  if (source === undefined || source === '-') {
    if (io.stdin.isTTY) throw new UsageError('webhooks verify reads the delivery from standard input, which is a terminal here: give a FILE or pipe it in');
    const body = await readCappedBody(io.stdin, MAX_INPUT_BYTES).catch((error: unknown) => {
      if (error instanceof BodyTooLargeError) throw new UsageError(`webhooks verify: standard input is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MB, which no delivery is`);
      throw error;
    });
    return parseSavedDelivery(body);
  }
  try {
    return parseSavedDelivery(await readFile(source));
  } catch (error) {
    throw new UsageError(`cannot read ${source} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

export function describeMatch(check: WebhookSignatureCheck): string {
  if (check.matched === 'raw') return 'The signature matches the body as received (raw bytes).';
  if (check.matched === 'python-json') return "The signature matches the platform's re-serialisation of the body (Python json.dumps), not its raw bytes.";
  return 'The signature matches neither the raw body nor its re-serialisation (Python json.dumps).';
}

export async function verifyDelivery(
  io: IO,
  options: { secret: string; signature?: string; source?: string },
): Promise<WebhookSignatureCheck> {
  const delivery = await readDelivery(options.source, io);
  const signature = options.signature ?? delivery.signature;
  if (!signature) {
    throw new UsageError('No signature to check', {
      hint: 'Pass --signature, or give a saved request whose headers include X-Store-Signature',
    });
  }
  if (options.secret === '') throw new UsageError('--secret-file: the file is empty');
  return verifyWebhookSignature(delivery.body, signature, options.secret);
}
