/** Stands in for a secret value in output. */
export const SECRET_KEYS_MASK = '***';

/** `abcd…wxyz` for long tokens, `***` for short ones. */
export function maskToken(token: string): string {
  return token.length >= 16 ? `${token.slice(0, 4)}…${token.slice(-4)}` : SECRET_KEYS_MASK;
}
