// --query (JMESPath) and --raw: checked before anything is sent, applied to the result after.
import { StoreAdminError, UsageError } from '../api/errors.js';

/** Fails on a malformed expression before anything is sent; a jq habit gets the JMESPath spelling. */
export async function checkQuery(query: string): Promise<void> {
  const { compile } = (await import('jmespath')).default as unknown as { compile(expression: string): unknown };
  try {
    compile(query);
  } catch (error) {
    throw new UsageError(`--query: not a valid JMESPath expression (${(error as Error).message})`, { hint: jqHint(query) });
  }
}

/** jq paths start with a dot (`.types[0]`, `.[]`); JMESPath's start with the field or `[`. */
function jqHint(query: string): string | undefined {
  const trimmed = query.trim();
  if (!trimmed.startsWith('.')) return undefined;
  const jmespath = trimmed === '.' ? '@' : trimmed.replace(/^\.(?=\[)/, '').replace(/^\./, '');
  return `--query takes JMESPath (https://jmespath.org), not jq: try --query '${jmespath}'`;
}

export async function applyQuery(data: unknown, query: string): Promise<unknown> {
  return (await querier(query))(data);
}

/** The query as a function, for applying it to record after record. */
export async function querier(query: string): Promise<(data: unknown) => unknown> {
  const { search } = (await import('jmespath')).default;
  return (data) => {
    try {
      return search(data as never, query);
    } catch (error) {
      // Exit 1, not 2: the request itself was sent, and succeeded.
      throw new StoreAdminError(`--query could not be applied to the result (${(error as Error).message}); the request itself succeeded`);
    }
  };
}

/**
 * --raw, as gh's --jq prints: a string bare, an array of scalars one per line; anything else (an
 * object, an array of objects) stays JSON. Undefined when the value is not raw-printable.
 */
export function rawLines(data: unknown): string | undefined {
  const scalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  if (scalar(data)) return `${text(data)}\n`;
  if (Array.isArray(data) && data.every(scalar)) return data.map((value) => `${text(value)}\n`).join('');
  return undefined;
}
