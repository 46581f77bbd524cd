/** Stands in for a secret value in output. */
export const SECRET_KEYS_MASK = '***';

/** `…wxyz`: the last 4 characters tell tokens apart without giving any away; short ones show nothing. */
export function maskToken(token: string): string {
  return token.length >= 16 ? `…${token.slice(-4)}` : SECRET_KEYS_MASK;
}
