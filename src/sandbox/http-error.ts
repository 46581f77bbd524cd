// Errors a sandbox handler throws; the server turns them into the platform's error bodies.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
  }
}

export const notFound = (what: string) => new HttpError(404, { detail: `${what} not found.` });
export const badRequest = (detail: string) => new HttpError(400, { detail });
